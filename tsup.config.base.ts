import type { Options } from "tsup";
import { emitDeclarations } from "./scripts/declarations.mjs";

/**
 * Shared build settings: one entry built twice, as an ES module (`.js`, the `import` condition)
 * and as CommonJS (`.cjs`, the `require` condition), node20 target, and declarations written per
 * source file by oxc's isolated-declarations transform once the JavaScript is built, each with a
 * `.d.cts` twin (scripts/declarations.mjs). Packages spread this.
 */
export const baseConfig: Options = {
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  // `import.meta.url` in the CommonJS build
  shims: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  onSuccess: async () => emitDeclarations(process.cwd()),
};
