import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// test-utils is source only: bundled, for the registries the registry benchmark starts
export default defineConfig({
  ...baseConfig,
  entry: ["src/run.ts", "src/memory.ts", "src/load-once.ts"],
  // private: no declarations, no CommonJS build
  format: ["esm"],
  onSuccess: undefined,
  noExternal: ["@skillshelf/test-utils"],
});
