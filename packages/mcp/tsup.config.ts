import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// `served` is an entry of its own: `list` and `explain` say what an MCP client gets without
// loading the MCP SDK, which only `skillshelf mcp` needs.
export default defineConfig({ ...baseConfig, entry: ["src/index.ts", "src/served.ts"] });
