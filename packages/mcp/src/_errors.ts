import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Code } from "@skillshelf/core";

/**
 * An invalid-params MCP error (-32602, what SEP-2640 and `resources/read` use for anything not
 * served) carrying the Skillshelf code and what it names in `data`.
 */
export function invalidParams(
  code: Code,
  message: string,
  details: Readonly<Record<string, unknown>> = {},
): McpError {
  return new McpError(ErrorCode.InvalidParams, message, { code, ...details });
}
