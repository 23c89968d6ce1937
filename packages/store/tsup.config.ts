import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// `testing` carries the fault hook for crash tests; it is built but not exported by the package.
// `writers` is the writers' own entry (see src/writers.ts).
export default defineConfig({
  ...baseConfig,
  entry: ["src/index.ts", "src/writers.ts", "src/testing.ts"],
  // store alone does not declare isolatedDeclarations (tsconfig.json says why): the checker writes them
  onSuccess: "tsc -p tsconfig.build.json",
});
