import { createRequire } from "node:module";

/**
 * The `yaml` package, loaded on the first document the fast path leaves to it: importing core
 * (every loader does) does not load the parser, which most frontmatter never needs; Node keeps the
 * module once loaded. This is `#yaml-library` for Node; a bundler takes `_yaml-bundled.ts`, whose
 * import it can follow (the `module` condition), and the CLI's own bundle a plain `require`.
 */
export function yamlLibrary(): typeof import("yaml") {
  return requireHere("yaml");
}

// made once: making it costs more than the cached `require` it then serves
const requireHere = createRequire(import.meta.url);
