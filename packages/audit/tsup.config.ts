import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// `sarif` is an entry of its own: the SARIF builder it uses is loaded only by `audit --sarif`
// and the like, never by an install that audits what it stages.
export default defineConfig({ ...baseConfig, entry: ["src/index.ts", "src/sarif.ts"] });
