import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// `listing` is an entry of its own: what catalog-view needs, without the YAML reader
export default defineConfig({ ...baseConfig, entry: ["src/index.ts", "src/listing.ts"] });
