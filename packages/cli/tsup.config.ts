import { chmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// Four builds, run at once into dist (the first cleans everything but the others' files):
// - the library, `@skillshelf/cli`'s import;
// - the bin, dist/cli.cjs: a loader that runs dist/skillshelf.cjs with the code cache the build
//   makes beside it (src/_code-cache.ts; `pnpm build` then runs scripts/code-cache.ts), itself
//   CommonJS, which Node starts sooner than an ES module;
// - dist/skillshelf.cjs: the whole command line in one CommonJS file, its workspace packages
//   bundled from their sources and its dependencies with them, so start-up resolves no modules
//   and V8 can cache all it compiles;
// - build/code-cache.js, the training run (not shipped).
const bundled = ["skillshelf.cjs", "skillshelf.cjs.map", "skillshelf.cache", "cli.cjs"];

export default defineConfig([
  {
    ...baseConfig,
    clean: bundled.map((file) => `!${file}`),
  },
  {
    entry: { cli: "src/cli.ts" },
    format: ["cjs"],
    target: "node20",
    // executable, so a symlink to it on the PATH runs it (the README says how)
    onSuccess: async () => chmodSync("dist/cli.cjs", 0o755),
  },
  {
    entry: { skillshelf: "src/bin.ts" },
    format: ["cjs"],
    target: "node20",
    sourcemap: true,
    noExternal: [/./],
    // less to read, hash and hand to V8 at every start (names kept, for errors and stacks)
    minify: true,
    keepNames: true,
    esbuildPlugins: [
      {
        name: "bundled-yaml",
        setup(build) {
          build.onResolve({ filter: /^#yaml-library$/ }, () => ({
            path: join(dirname(fileURLToPath(import.meta.url)), "src", "_yaml-library.ts"),
          }));
        },
      },
    ],
    esbuildOptions(options) {
      options.conditions = ["source"];
      // a lazy `import()` of a built-in module becomes a lazy `require`, which the loader gives it
      options.supported = { "dynamic-import": false };
      // the CycloneDX library's optional plug-ins (XML, schema validation): never used by sbom;
      // and what one command or one kind of source alone loads, from node_modules, so every other
      // command's start does not read, hash and compile it: the MCP SDK (`skillshelf mcp`, an MCP
      // source), the CycloneDX library (`sbom`), npm's libraries that resolve an npm source (120 KB)
      // and undici, the HTTP client of every download (loaded by the first request; its text is
      // not all ASCII); the audit's parsers, loaded with their .wasm grammars beside them at the
      // first code an audit reads
      options.external = [
        ...(options.external ?? []),
        "@vscode/tree-sitter-wasm",
        "@modelcontextprotocol/sdk",
        "@cyclonedx/cyclonedx-library",
        "undici",
        "npm-registry-fetch",
        "npm-pick-manifest",
        "ssri",
        "ajv",
        "ajv-formats",
        "ajv-formats-draft2019",
        "libxmljs2",
        "xmlbuilder2",
      ];
    },
  },
  {
    entry: { "code-cache": "scripts/code-cache.ts" },
    outDir: "build",
    format: ["esm"],
    target: "node20",
    clean: true,
  },
]);
