import { defineConfig } from "tsup";
import { baseConfig, bundling } from "../../tsup.config.base.ts";

// zod is built in (its licence kept): a harness reading recipes installs no validator
export default defineConfig({ ...baseConfig, ...bundling("zod", import.meta.dirname) });
