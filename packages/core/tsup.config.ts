import { defineConfig } from "tsup";
import { baseConfig, bundling } from "../../tsup.config.base.ts";

// `#yaml-library` (package.json `imports`) is how core loads `yaml`: Node takes `_yaml-library`
// (a lazy `createRequire`), a bundler `_yaml-bundled`, built here with `yaml`'s own ES module
// build inside it, so a bundle needs neither `node_modules` nor a `require` of Node's modules
// (which an ES module bundle cannot make). `listing` is what catalog-view needs, without YAML.
const bundled = ["_yaml-bundled.js"];

export default defineConfig([
  {
    ...baseConfig,
    entry: ["src/index.ts", "src/listing.ts", "src/_yaml-library.ts"],
    external: ["#yaml-library"],
    clean: bundled.map((file) => `!${file}`),
  },
  {
    entry: ["src/_yaml-bundled.ts"],
    format: ["esm"],
    target: "node20",
    platform: "neutral",
    // yaml built in, its licence kept
    ...bundling("yaml", import.meta.dirname),
    // `yaml`'s `default` condition: its ES module build, which requires nothing of Node's
    esbuildOptions(options) {
      options.conditions = ["import", "default"];
    },
  },
]);
