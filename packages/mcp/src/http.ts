import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { SkillServer } from "./server.js";

/** Where `serveHttp` listens. */
export interface HttpOptions {
  /** Default `127.0.0.1`: only this machine can connect unless a host is named. */
  readonly host?: string | undefined;
  /** Default 0: a free port (the listening server's `address()` says which). */
  readonly port?: number | undefined;
  /** The endpoint's path. Default `/mcp`. */
  readonly path?: string | undefined;
}

/** The largest JSON-RPC message accepted over HTTP. */
export const MAX_HTTP_MESSAGE_BYTES: number = 1024 * 1024;

/**
 * Serve `skills` over MCP's Streamable HTTP transport: one session per client that initializes,
 * each with its own SDK server over the shared listing. Bound to loopback by default, where the
 * `Host` header must name loopback too (DNS rebinding). Resolves once listening.
 */
export async function serveHttp(skills: SkillServer, options: HttpOptions = {}): Promise<Server> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  // loaded here, so a server over stdio starts without the HTTP transport and what it needs
  const { StreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/streamableHttp.js"
  );
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) rpcError(response, 500, -32603, "internal error");
      else response.end();
    });
  });
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (new URL(request.url ?? "/", "http://x").pathname !== path) {
      rpcError(response, 404, -32601, `no MCP endpoint here; it is ${path}`);
      return;
    }
    const id = request.headers["mcp-session-id"];
    const existing = typeof id === "string" ? sessions.get(id) : undefined;
    if (existing !== undefined) {
      const body = await bodyOf(request, response);
      if (body !== NOT_JSON) await existing.handleRequest(request, response, body);
      return;
    }
    if (id !== undefined) {
      rpcError(response, 404, -32001, "the session is unknown or closed; initialize again");
      return;
    }
    const body = await bodyOf(request, response);
    if (body === NOT_JSON) return;
    if (request.method !== "POST" || !isInitializeRequest(body)) {
      rpcError(response, 400, -32600, "start a session with an initialize request");
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
      ...(isLoopback(host)
        ? { enableDnsRebindingProtection: true, allowedHosts: loopbackHosts(http) }
        : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await skills.connect(transport);
    await transport.handleRequest(request, response, body);
  };
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  http.on("close", () => {
    for (const transport of sessions.values()) void transport.close();
  });
  return http;
}

// --- internal ---

const NOT_JSON = Symbol("not JSON");

/** The request's JSON body (`undefined` for a GET or DELETE), or `NOT_JSON` once refused. */
async function bodyOf(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<unknown | typeof NOT_JSON> {
  if (request.method !== "POST") return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_HTTP_MESSAGE_BYTES) {
      rpcError(response, 413, -32600, `a message may be at most ${MAX_HTTP_MESSAGE_BYTES} bytes`);
      return NOT_JSON;
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    rpcError(response, 400, -32700, "the body is not JSON");
    return NOT_JSON;
  }
}

function rpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

function loopbackHosts(http: Server): string[] {
  const address = http.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}
