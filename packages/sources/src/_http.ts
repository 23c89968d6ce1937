import type { IncomingMessage } from "node:http";

/** A response as `httpRequest` gives it: the status, a header by name, and the body as it arrives. */
export interface HttpResponse {
  readonly status: number;
  readonly ok: boolean;
  header(name: string): string | undefined;
  readonly body: IncomingMessage;
  /** Drop the body unread (the connection is freed). */
  discard(): void;
}

/**
 * One HTTP(S) request through Node's own `http` and `https` (the global `fetch` costs a process
 * 30–50 ms to load on first use; a registry client makes a handful of requests). Redirects are
 * not followed: the caller decides. Rejects with Node's error (an `AbortError` when `signal`
 * ends it).
 */
export async function httpRequest(
  url: string,
  init: {
    readonly method?: string | undefined;
    readonly headers?: Readonly<Record<string, string>> | undefined;
    readonly body?: Buffer | undefined;
    readonly signal?: AbortSignal | undefined;
  } = {},
): Promise<HttpResponse> {
  const target = new URL(url);
  const { request } =
    target.protocol === "https:" ? await import("node:https") : await import("node:http");
  const headers = {
    ...init.headers,
    ...(init.body === undefined ? {} : { "content-length": String(init.body.length) }),
  };
  return new Promise((resolve, reject) => {
    const sent = request(
      target,
      {
        method: init.method ?? "GET",
        headers,
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        resolve({
          status,
          ok: status >= 200 && status < 300,
          header: (name) => {
            const value = response.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(", ") : value;
          },
          body: response,
          discard: () => response.resume(),
        });
      },
    );
    sent.on("error", reject);
    sent.end(init.body);
  });
}
