import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "./_errors.js";

/**
 * A tool a host adds to the server (the CLI's change commands): its name, what it does, the JSON
 * Schema of its arguments, and what a call does. The server checks the name; `call` judges the
 * arguments.
 */
export interface ServerTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: {
    readonly type: "object";
    readonly properties: Readonly<Record<string, object>>;
    readonly required?: readonly string[];
  };
  call(args: Readonly<Record<string, unknown>>, client: ToolClient): Promise<ToolAnswer>;
}

/** The connected client, as a tool call may use it. */
export interface ToolClient {
  /**
   * Ask the person at the client a yes/no question (MCP elicitation): `true` or `false` as
   * answered (a declined or cancelled form is `false`), `undefined` when the client cannot ask.
   */
  confirm(message: string): Promise<boolean | undefined>;
  /** Aborted when the client cancels the call. */
  readonly signal: AbortSignal;
}

/** What a tool call answers: text for the model, and whether it is an error. */
export interface ToolAnswer {
  readonly text: string;
  readonly isError?: boolean | undefined;
}

/** Serve `tools` on `server` (`tools/list`, `tools/call`); nothing when there are none. */
export function serveTools(server: Server, tools: readonly ServerTool[]): void {
  if (tools.length === 0) return;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra): Promise<CallToolResult> => {
      const tool = tools.find((one) => one.name === request.params.name);
      if (tool === undefined)
        throw invalidParams("mcp_tool_unknown", `no tool is named ${request.params.name}`, {
          name: request.params.name,
        });
      const answer = await tool.call(request.params.arguments ?? {}, {
        confirm: (message) => confirmAtClient(server, message),
        signal: extra.signal,
      });
      return { content: [{ type: "text", text: answer.text }], isError: answer.isError === true };
    },
  );
}

// --- internal ---

/** How long a person at the client has to answer a question: the SDK's default minute is too short. */
const ANSWER_WAIT_MS = 15 * 60 * 1000;

/** A form with one yes/no field, when the client can show forms; any failure to ask is no answer. */
async function confirmAtClient(server: Server, message: string): Promise<boolean | undefined> {
  if (server.getClientCapabilities()?.elicitation === undefined) return undefined;
  try {
    const answer = await server.elicitInput(
      {
        message,
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean", title: "Apply", default: false } },
          required: ["confirm"],
        },
      },
      { timeout: ANSWER_WAIT_MS },
    );
    return answer.action === "accept" && answer.content?.confirm === true;
  } catch {
    return undefined;
  }
}
