import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { SkillServer } from "./server.js";

/**
 * Serve `skills` to one client over stdio (`stdin` and `stdout` by default; nothing else may write
 * to that stdout) until the input ends. A line that is not JSON is answered with a parse error
 * (-32700) and one that is not a JSON-RPC message with an invalid request (-32600), both with no
 * id, as JSON-RPC asks; the SDK's transport alone would drop them unanswered.
 */
export async function serveStdio(
  skills: SkillServer,
  streams: { readonly stdin?: Readable; readonly stdout?: Writable } = {},
): Promise<void> {
  const stdin = streams.stdin ?? process.stdin;
  const stdout = streams.stdout ?? process.stdout;
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  stdin.once("end", () => void transport.close());
  await skills.connect(transport);
  const reported = transport.onerror;
  transport.onerror = (error) => {
    reported?.(error);
    const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : 0;
    if (code !== 0)
      stdout.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message: code === -32700 ? "the line is not JSON" : "the message is not a JSON-RPC request" } })}\n`,
      );
  };
  await closed;
}
