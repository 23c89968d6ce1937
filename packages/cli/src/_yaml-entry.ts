// What core takes from `yaml`, built into dist/yaml.cjs on its own (see tsup.config.ts), so the
// bin compiles the parser only when src/_yaml-on-demand.ts first needs it.
export { isScalar, parseDocument, visit } from "yaml";
