import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// The bin bundles its workspace dependencies and theirs, so start-up resolves no packages. `yaml`
// is bundled apart, into dist/yaml.cjs: core's import of it becomes src/_yaml-on-demand.ts, which
// loads that file for the first document core's fast path does not read. Bundled CommonJS
// dependencies get the `require` an ES module lacks from the banner.
const yamlOnDemand: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "yaml-on-demand",
  setup(build) {
    const shim = fileURLToPath(new URL("src/_yaml-on-demand.ts", import.meta.url));
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: shim }));
  },
};

export default defineConfig([
  {
    ...baseConfig,
    entry: ["src/index.ts", "src/cli.ts"],
    dts: { entry: "src/index.ts" },
    noExternal: [/^@skillshelf\//, "yaml"],
    esbuildPlugins: [yamlOnDemand],
    // both builds run at once: this one's cleaning leaves the other's file alone
    clean: ["!yaml.cjs"],
    splitting: true,
    // bundle the workspace packages from their sources, module by module, so each command's chunk
    // holds only the modules it reaches (list never loads the lock or the staging code)
    esbuildOptions(options) {
      options.conditions = ["source"];
    },
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
  },
  {
    entry: { yaml: "src/_yaml-entry.ts" },
    format: ["cjs"],
    target: "node20",
    noExternal: ["yaml"],
  },
]);
