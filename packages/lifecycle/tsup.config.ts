import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// `testing` attaches store's fault hook for crash tests; it is built but not exported by the package.
export default defineConfig({ ...baseConfig, entry: ["src/index.ts", "src/testing.ts"] });
