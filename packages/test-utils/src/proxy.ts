import { lookup } from "node:dns";
import { onTestFinished } from "vitest";

/** One request a proxy was asked for: a tunnel (`CONNECT`) or a plain-HTTP request, to `host:port`. */
export interface ProxiedRequest {
  readonly method: "CONNECT" | "HTTP";
  /** `host:port` as the client named it. */
  readonly target: string;
  /** The user the client gave (`""` for none). */
  readonly user: string;
}

/** A forward proxy on loopback, and every request it was asked for. */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, with `user:password@` when it asks for them. */
  readonly url: string;
  readonly requests: readonly ProxiedRequest[];
}

/**
 * Start a forward proxy (Apify's `proxy-chain`, a maintained one from npm) on loopback, closed
 * when the test ends. It resolves every `*.test` name to 127.0.0.1, so a client that must not
 * reach loopback through a proxy can still be sent through one to the test's own servers: it asks
 * for `https://registry.test:<port>` and only the proxy knows where that is. With `user`, it
 * answers 407 to a request without that user and password.
 */
export async function startForwardProxy(
  options: { readonly user?: { readonly name: string; readonly password: string } } = {},
): Promise<ForwardProxy> {
  // loaded here: most users of this package start no proxy
  const { Server } = await import("proxy-chain");
  const requests: ProxiedRequest[] = [];
  const { user } = options;
  const server = new Server({
    port: 0,
    host: "127.0.0.1",
    prepareRequestFunction: ({ hostname, port, username, password, isHttp }) => {
      requests.push({
        method: isHttp ? "HTTP" : "CONNECT",
        target: `${hostname}:${port}`,
        user: username,
      });
      if (user !== undefined && (username !== user.name || password !== user.password))
        return { requestAuthentication: true };
      return { dnsLookup: testNames as typeof lookup };
    },
  });
  await server.listen();
  onTestFinished(() => server.close(true));
  const credentials = user === undefined ? "" : `${user.name}:${user.password}@`;
  return { url: `http://${credentials}127.0.0.1:${server.port}`, requests };
}

// --- internal ---

/** `dns.lookup` with every `*.test` name at 127.0.0.1. */
function testNames(
  hostname: string,
  options: { readonly all?: boolean },
  callback: (...answer: unknown[]) => void,
): void {
  if (!hostname.endsWith(".test")) {
    lookup(hostname, options, callback);
    return;
  }
  if (options.all === true) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
}
