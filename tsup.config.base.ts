import type { Options } from "tsup";
import { emitDeclarations } from "./scripts/declarations.mjs";

/**
 * Shared build settings: one ESM entry, node20 target, and declarations written per source file by
 * oxc's isolated-declarations transform once the JavaScript is built (scripts/declarations.mjs).
 * Packages spread this.
 */
export const baseConfig: Options = {
  entry: ["src/index.ts"],
  format: ["esm"],
  sourcemap: true,
  clean: true,
  target: "node20",
  onSuccess: async () => emitDeclarations(process.cwd()),
};
