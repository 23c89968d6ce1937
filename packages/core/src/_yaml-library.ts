import { createRequire } from "node:module";

/**
 * The `yaml` package, loaded on the first document the fast path leaves to it: importing core
 * (every loader does) does not load the parser, which most frontmatter never needs; Node keeps the
 * module once loaded. The CLI's bundle replaces this file with one whose plain `require` the
 * bundler follows, so the parser travels inside the bundle and is still initialized on first use.
 */
export function yamlLibrary(): typeof import("yaml") {
  return requireHere("yaml");
}

// made once: making it costs more than the cached `require` it then serves
const requireHere = createRequire(import.meta.url);
