import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
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
  // none: the output is unminified, names kept, and a map (the sources inside) would double what
  // a harness installs
  sourcemap: false,
  clean: true,
  target: "node20",
  onSuccess: async () => emitDeclarations(process.cwd()),
};

/**
 * Settings that build the dependency `name` (and its subpaths) into the output, its licence in a
 * banner, for a package whose harnesses should not install it: what is bundled keeps its licence.
 * `from`: the package folder whose `node_modules` holds it.
 */
export function bundling(name: string, from: string): Pick<Options, "noExternal" | "banner"> {
  const dir = dirname(createRequire(join(from, "package.json")).resolve(`${name}/package.json`));
  const licence = readFileSync(join(dir, "LICENSE"), "utf8").replaceAll("*/", "* /");
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return {
    noExternal: [new RegExp(`^${name}(/|$)`)],
    banner: { js: `/*! Bundled: ${name} ${version}\n${licence}*/` },
  };
}
