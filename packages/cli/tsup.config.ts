import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// The bin bundles its workspace dependencies and `yaml`, so start-up resolves no packages. `yaml`
// is CommonJS inside; the banner gives it the `require` an ES module lacks.
export default defineConfig({
  ...baseConfig,
  entry: ["src/index.ts", "src/cli.ts"],
  dts: { entry: "src/index.ts" },
  noExternal: [/^@skillshelf\//, "yaml"],
  splitting: true,
  // bundle the workspace packages from their sources, module by module, so each command's chunk
  // holds only the modules it reaches (list never loads the lock or the staging code)
  esbuildOptions(options) {
    options.conditions = ["source"];
  },
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
});
