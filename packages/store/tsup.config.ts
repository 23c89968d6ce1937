import { execFileSync } from "node:child_process";
import { defineConfig } from "tsup";
import { emitCommonJsDeclarations } from "../../scripts/declarations.mjs";
import { baseConfig, bundling } from "../../tsup.config.base.ts";

// `testing` carries the fault hook for crash tests; it is built but not exported by the package.
// `writers` is the writers' own entry (see src/writers.ts).
// zod is built in (its licence kept): the read path a harness installs carries no validator package
export default defineConfig({
  ...baseConfig,
  ...bundling("zod", import.meta.dirname),
  entry: ["src/index.ts", "src/writers.ts", "src/testing.ts"],
  // store alone does not declare isolatedDeclarations (tsconfig.json says why): the checker writes them
  onSuccess: async () => {
    execFileSync("tsc", ["-p", "tsconfig.build.json"], { stdio: "inherit" });
    emitCommonJsDeclarations(process.cwd());
  },
});
