import * as yaml from "yaml";

/**
 * The `yaml` package as a bundler sees it (`#yaml-library` under the `module` condition, which
 * esbuild, Rollup and webpack apply and Node does not): a static import the bundler follows, so a
 * bundle shipped without `node_modules` carries the parser, in ES module and CommonJS output alike.
 */
export function yamlLibrary(): typeof import("yaml") {
  return yaml;
}
