import type { Options } from "tsup";

/** Shared build settings: one ESM entry, declarations, node20 target. Packages spread this. */
export const baseConfig: Options = {
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
};
