import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hostname, networkInterfaces } from "node:os";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { isLoopbackHost, SkillshelfError } from "@skillshelf/core";
import type { SkillServer } from "./server.js";

/** Where `serveHttp` listens, and whom it answers. */
export interface HttpOptions {
  /** Default `127.0.0.1`: only this machine can connect unless a host is named. */
  readonly host?: string | undefined;
  /** Default 0: a free port (the listening server's `address()` says which). */
  readonly port?: number | undefined;
  /** The endpoint's path. Default `/mcp`. */
  readonly path?: string | undefined;
  /**
   * The bearer token every request must carry (`Authorization: Bearer <token>`). Required when
   * `host` is not this machine's loopback: such a server is refused without one.
   */
  readonly token?: string | undefined;
  /**
   * Host names a request's `Host` (and `Origin`, when sent) may name besides this machine's own
   * (loopback, and for a server on another address, that address, its interfaces' addresses and
   * its host name): the name clients reach it by, behind a proxy or in DNS.
   */
  readonly allowedHosts?: readonly string[] | undefined;
}

/** The largest JSON-RPC message accepted over HTTP. */
export const MAX_HTTP_MESSAGE_BYTES: number = 1024 * 1024;

/**
 * Serve `skills` over MCP's Streamable HTTP transport: one session per client that initializes,
 * each with its own SDK server over the shared listing. Bound to loopback by default. Every
 * request's `Host`, and its `Origin` when a browser sends one, must name this machine or an
 * allowed host (a page elsewhere cannot reach it through DNS rebinding: 403); with a token, every
 * request must carry it (401). On an address other than loopback a token is required
 * (`mcp_http_unprotected` otherwise): nothing is served to a network unauthenticated. Resolves
 * once listening.
 */
export async function serveHttp(skills: SkillServer, options: HttpOptions = {}): Promise<Server> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  if (!isLoopbackHost(host) && (options.token ?? "") === "")
    throw new SkillshelfError(
      "mcp_http_unprotected",
      `serving on ${host} would give every trusted skill to anyone who can reach it: a token is required`,
      { details: { host } },
    );
  const allowed = allowedHostnames(host, options.allowedHosts ?? []);
  const admitted = admission(allowed, options.token);
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
    const refusal = admitted(request);
    if (refusal !== undefined) {
      rpcError(response, refusal.status, -32001, refusal.message, refusal.headers);
      return;
    }
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

function rpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  response
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Why a request is not answered (its status, message and headers), `undefined` when it is. */
type Admission = (
  request: IncomingMessage,
) => { status: number; message: string; headers?: Record<string, string> } | undefined;

/** The check of every request: its `Host` and `Origin` against `allowed`, then its token. */
function admission(allowed: ReadonlySet<string>, token: string | undefined): Admission {
  const expected = token === undefined ? undefined : sha256Of(`Bearer ${token}`);
  return (request) => {
    const origin = request.headers.origin;
    const named = [request.headers.host ?? "", ...(origin === undefined ? [] : [origin])];
    for (const name of named)
      if (!allowed.has(hostnameOf(name)))
        return { status: 403, message: `${name} is not a name this server answers to` };
    if (expected === undefined) return undefined;
    const given = sha256Of(request.headers.authorization ?? "");
    return timingSafeEqual(given, expected)
      ? undefined
      : {
          status: 401,
          message: "this server needs its bearer token",
          headers: { "www-authenticate": 'Bearer realm="skillshelf"' },
        };
  };
}

/** This machine's names, the address served on, and `extra` (lower case, no port, no brackets). */
function allowedHostnames(host: string, extra: readonly string[]): ReadonlySet<string> {
  const names = ["localhost", "127.0.0.1", "::1", host, ...extra];
  if (!isLoopbackHost(host)) {
    names.push(hostname());
    for (const addresses of Object.values(networkInterfaces()))
      for (const address of addresses ?? []) names.push(address.address);
  }
  return new Set(names.map((name) => name.toLowerCase().replace(/^\[(.*)\]$/, "$1")));
}

/** The host name of a `Host` header or an `Origin` URL, lower case, without port or brackets. */
function hostnameOf(text: string): string {
  const url = URL.canParse(text) && text.includes("://") ? new URL(text) : undefined;
  const host = url?.hostname ?? text.replace(/:\d+$/, "");
  return host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
}

function sha256Of(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
