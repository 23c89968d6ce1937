import { execFileSync } from "node:child_process";
import { defineConfig } from "tsup";
import { emitCommonJsDeclarations } from "../../scripts/declarations.mjs";
import { baseConfig } from "../../tsup.config.base.ts";

// `testing` carries the fault hook for crash tests; it is built but not exported by the package.
// `writers` is the writers' own entry (see src/writers.ts).
export default defineConfig({
  ...baseConfig,
  entry: ["src/index.ts", "src/writers.ts", "src/testing.ts"],
  // store alone does not declare isolatedDeclarations (tsconfig.json says why): the checker writes them
  onSuccess: async () => {
    execFileSync("tsc", ["-p", "tsconfig.build.json"], { stdio: "inherit" });
    emitCommonJsDeclarations(process.cwd());
  },
});
