/// <reference path="../_undici-modules.d.ts" />
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { requestFailed, TUNNEL_DROPPED, tooLarge } from "./_failure.js";
import { followedRedirect, REDIRECTS } from "./_redirects.js";
import { type ProxySettings, proxyFor, readProxySettings } from "./proxy.js";

/**
 * The credentials configured for `url`'s origin (scheme, host and port), `undefined` when none
 * are. A client asks for each request it sends, redirects included, so what was configured for
 * one origin never reaches another.
 */
export type OriginCredentials = (url: URL) => Promise<Readonly<Record<string, string>> | undefined>;

/** One request. */
export interface HttpInit {
  readonly method?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: Buffer | string | undefined;
  /** Ends the request, while it connects or while its body arrives. */
  readonly signal?: AbortSignal | undefined;
  readonly credentials?: OriginCredentials | undefined;
  /** Follow redirects (at most five, http(s) only, never from https down to http). Default: for GET and HEAD. */
  readonly follow?: boolean | undefined;
}

/** A response whose body has not been read yet. */
export interface HttpResponse {
  readonly status: number;
  readonly ok: boolean;
  /** The URL that answered, after any redirect. */
  readonly url: URL;
  /** Whether credentials configured for that URL's origin went with the request. */
  readonly signed: boolean;
  header(name: string): string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readable;
  /** The body, refused (`archive_too_large`) once it is over `maxBytes`: by its declared length before reading, else as it arrives. */
  bytes(maxBytes: number): Promise<Buffer>;
  /** Drop the body unread (its connection is freed). */
  discard(): void;
}

/**
 * The one HTTP client of every request Skillshelf makes itself (DESIGN §17): archives, sites,
 * OCI registries and their token services, remote indexes, MCP servers over HTTP. It goes through
 * the proxy the environment names (`readProxySettings`; never for this machine), follows
 * redirects by one rule, gives each origin only its own credentials, and codes every failure,
 * naming the URL or the proxy, never a credential.
 */
export interface HttpClient {
  request(url: URL, init?: HttpInit): Promise<HttpResponse>;
  /** A WHATWG `fetch` over `request`, for libraries that take one (the MCP SDK's transport). */
  fetchWith(credentials?: OriginCredentials): typeof fetch;
  /** The proxy a request to `url` would go through, `undefined` when it goes directly. */
  proxyFor(url: URL): URL | undefined;
}

/**
 * A client for the environment `env` (its proxy variables; read on the first request, so a
 * wrong one is an error of the request that needs it). The HTTP library (undici: its `Agent` and
 * `ProxyAgent`, the dispatchers Node's own `fetch` is built on) is loaded by the first request.
 */
export function createHttpClient(env: Readonly<Record<string, string | undefined>>): HttpClient {
  let settings: ProxySettings | undefined;
  let dispatchers: Dispatchers | undefined;
  const proxyOf = (url: URL) => {
    settings ??= readProxySettings(env);
    return proxyFor(settings, url);
  };
  const send = async (url: URL, init: HttpInit): Promise<HttpResponse> => {
    const proxy = proxyOf(url);
    dispatchers ??= await loadDispatchers();
    const loaded = dispatchers;
    const credentials = await init.credentials?.(url);
    const headers = { ...init.headers, ...credentials };
    try {
      const sent = loaded.send(await loaded.through(proxy), url, {
        method: (init.method ?? "GET") as Dispatcher.HttpMethod,
        headers,
        body: init.body ?? null,
        signal: init.signal ?? null,
        // the caller's signal bounds the whole request; without one, undici's own limits do
        ...(init.signal === undefined ? {} : { headersTimeout: 0, bodyTimeout: 0 }),
      });
      const answer = await untilAborted(sent, init.signal, () => loaded.drop(proxy));
      const signed = credentials !== undefined && Object.keys(credentials).length > 0;
      return response(url, answer, { signed, signal: init.signal });
    } catch (error) {
      throw requestFailed(url, error, { proxy, signal: init.signal });
    }
  };
  const request = async (url: URL, init: HttpInit = {}): Promise<HttpResponse> => {
    const method = init.method ?? "GET";
    const follow = init.follow ?? (method === "GET" || method === "HEAD");
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const answer = await send(current, init);
      const location = answer.header("location");
      if (!follow || !REDIRECTS.has(answer.status) || location === undefined) return answer;
      answer.discard();
      current = followedRedirect(current, location, redirects);
    }
  };
  return {
    request,
    proxyFor: proxyOf,
    fetchWith: (credentials) => fetchOver(request, credentials),
  };
}

/** A WHATWG `fetch` whose every request is sent by `request` with `credentials`. */
export function fetchOver(
  request: HttpClient["request"],
  credentials: OriginCredentials | undefined,
): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const answer = await request(url, {
      method: init?.method,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === "string" ? init.body : undefined,
      signal: init?.signal ?? undefined,
      credentials,
    });
    const { Readable } = await import("node:stream");
    const empty = answer.status === 204 || answer.status === 304 || init?.method === "HEAD";
    if (empty) answer.discard();
    return new Response(empty ? null : (Readable.toWeb(answer.body) as ReadableStream), {
      status: answer.status,
      headers: answer.headers,
    });
  };
}

// --- internal ---

interface Dispatchers {
  /** Send one request through `dispatcher` (undici's `request`). */
  send(dispatcher: Dispatcher, url: URL, options: SendOptions): Promise<Dispatcher.ResponseData>;
  /** The dispatcher for requests through `proxy`, or straight out when it is `undefined`. */
  through(proxy: URL | undefined): Promise<Dispatcher>;
  /** Close the dispatcher through `proxy` and all it is doing; the next request makes another. */
  drop(proxy: URL | undefined): void;
}

type SendOptions = Omit<Dispatcher.RequestOptions, "origin" | "path">;

/**
 * undici's dispatchers and its `request`, loaded from their own modules: the package's index
 * loads its `fetch`, caches, mocks and WebSocket too (~70 ms of a process's start for a download,
 * against ~25 ms), which only a proxy's `ProxyAgent` needs.
 */
async function loadDispatchers(): Promise<Dispatchers> {
  const [{ default: Agent }, { default: request }] = await Promise.all([
    import("undici/lib/dispatcher/agent.js"),
    import("undici/lib/api/api-request.js"),
  ]);
  let direct: Dispatcher | undefined;
  const proxied = new Map<string, Dispatcher>();
  return {
    send: (dispatcher, url, options) =>
      request.call(dispatcher, {
        ...options,
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
      }),
    through: async (proxy) => {
      if (proxy === undefined) {
        direct ??= new Agent();
        return direct;
      }
      const known = proxied.get(proxy.href);
      if (known !== undefined) return known;
      const agent = await proxyAgent(proxy);
      proxied.set(proxy.href, agent);
      return agent;
    },
    drop: (proxy) => {
      if (proxy === undefined) return;
      void proxied
        .get(proxy.href)
        ?.destroy()
        .catch(() => undefined);
      proxied.delete(proxy.href);
    },
  };
}

/**
 * undici's `ProxyAgent` for `proxy`. undici 7 (the last line for Node 20) retries forever, deaf to
 * the request's signal, when a proxy closes the connection instead of answering CONNECT
 * (nodejs/undici#3897, fixed in 8 by failing the request): the same fix, from outside, as a
 * proxy client whose tunnels fail so.
 */
async function proxyAgent(proxy: URL): Promise<Dispatcher> {
  // the whole package: its index gives dispatchers the `connect` a proxy's tunnel is asked with
  const { Pool, ProxyAgent } = await import("undici");
  const clientFactory = (origin: URL, options: object): Dispatcher => {
    const pool = new Pool(origin, options);
    const connect = pool.connect.bind(pool) as (options: object) => Promise<unknown>;
    Object.assign(pool, {
      connect: (options: object) =>
        connect(options).catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== "UND_ERR_SOCKET") throw error;
          throw Object.assign(new Error("the proxy closed the connection it was asked to tunnel"), {
            code: TUNNEL_DROPPED,
            cause: error,
          });
        }),
    });
    return pool;
  };
  return new ProxyAgent({ uri: proxy.href, clientFactory });
}

/**
 * `sent`, or the signal's reason once it aborts first: undici does not hear a request's signal
 * while a proxy has not answered its CONNECT, so the wait for it is ended here and `stop` closes
 * what is still waiting.
 */
function untilAborted<T>(
  sent: Promise<T>,
  signal: AbortSignal | undefined,
  stop: () => void,
): Promise<T> {
  if (signal === undefined) return sent;
  return new Promise((resolve, reject) => {
    const abort = () => {
      stop();
      reject(signal.reason);
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    sent.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

function response(
  url: URL,
  answer: Dispatcher.ResponseData,
  context: { readonly signed: boolean; readonly signal: AbortSignal | undefined },
): HttpResponse {
  const { signed, signal } = context;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  const body = answer.body;
  return {
    status: answer.statusCode,
    ok: answer.statusCode >= 200 && answer.statusCode < 300,
    url,
    signed,
    headers,
    header: (name) => headers[name.toLowerCase()],
    body,
    bytes: (maxBytes) => readWithin(body, maxBytes, url, headers["content-length"], signal),
    // read up to undici's small limit so the connection is kept, else closed
    discard: () => void body.dump().catch(() => undefined),
  };
}

async function readWithin(
  body: Readable,
  maxBytes: number,
  url: URL,
  declared: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  if (Number(declared ?? 0) > maxBytes) {
    drop(body);
    throw tooLarge(url, `the download is ${declared} bytes, over the ${maxBytes}-byte limit`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total > maxBytes) {
        drop(body);
        throw tooLarge(url, `the download passed the ${maxBytes}-byte limit`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw requestFailed(url, error, { signal });
  }
  return Buffer.concat(chunks);
}

/** Stop a body mid-way: its connection is closed, and the abort this raises is nobody's error. */
function drop(body: Readable): void {
  body.on("error", () => undefined);
  body.destroy();
}
