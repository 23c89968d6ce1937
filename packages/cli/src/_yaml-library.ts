/**
 * Core's `_yaml-library.ts` in the command's CommonJS bundle (tsup.config.ts swaps it in): a
 * plain `require`, which the bundler follows, so `yaml` is inside the bundle (and its code cache)
 * and initialized on first use.
 */
export function yamlLibrary(): typeof import("yaml") {
  return require("yaml");
}
