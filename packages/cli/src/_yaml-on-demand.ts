import { createRequire } from "node:module";
import type * as Yaml from "yaml";

/*
 * What core takes from `yaml`, for the bin: the bundle resolves core's `yaml` import to this
 * module (see tsup.config.ts), which loads the parser, bundled on its own as dist/yaml.cjs, on
 * the first document core's fast path does not read. Most runs never parse such a document, so
 * they never compile the parser.
 */

const load = createRequire(import.meta.url);
const yaml = (): typeof Yaml => load("./yaml.cjs") as typeof Yaml;

export const parseDocument: typeof Yaml.parseDocument = (...args) => yaml().parseDocument(...args);

export const isScalar = ((node: unknown) => yaml().isScalar(node)) as typeof Yaml.isScalar;

export const visit: typeof Yaml.visit = Object.defineProperties(
  ((node, visitor) => yaml().visit(node, visitor)) as typeof Yaml.visit,
  {
    BREAK: { get: () => yaml().visit.BREAK },
    SKIP: { get: () => yaml().visit.SKIP },
    REMOVE: { get: () => yaml().visit.REMOVE },
  },
);
