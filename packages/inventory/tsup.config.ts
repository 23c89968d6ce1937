import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// `sbom` is an entry of its own: the CycloneDX library it uses is loaded only by those who ask.
export default defineConfig({ ...baseConfig, entry: ["src/index.ts", "src/sbom.ts"] });
