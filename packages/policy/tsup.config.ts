import { defineConfig } from "tsup";
import { baseConfig, bundling } from "../../tsup.config.base.ts";

// zod is built in (its licence kept): the runtime reads advisories through policy, and a harness
// embedding `@skillshelf/resources` installs no validator
export default defineConfig({
  ...baseConfig,
  ...bundling("zod", import.meta.dirname),
  entry: ["src/index.ts"],
});
