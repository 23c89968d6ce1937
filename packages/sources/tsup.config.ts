import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

// `mcp-protocol` is an entry of its own: SEP-2640's facts, which the MCP server's read path
// (`@skillshelf/mcp/served`, under `list`) takes without loading every fetcher
export default defineConfig({ ...baseConfig, entry: ["src/index.ts", "src/mcp-protocol.ts"] });
