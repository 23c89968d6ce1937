import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import { testdir } from "./testdir.js";

/** A loopback HTTP server answering from `routes`, closed when the test ends; returns its base URL. */
export async function serve(routes: Record<string, Buffer | RequestListener>): Promise<string> {
  const server = createServer(answer(routes));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  onTestFinished(() => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * `serve` over https, with a fresh self-signed certificate for 127.0.0.1 and `names` (made with
 * `openssl`): its base URL and the certificate's path, for `NODE_EXTRA_CA_CERTS` in a child that
 * trusts it.
 */
export async function serveHttps(
  routes: Record<string, Buffer | RequestListener>,
  names: readonly string[] = [],
): Promise<{ url: string; certificate: string }> {
  const { key, certificate } = throwawayCertificate(testdir(), names);
  const server = createHttpsServer(
    { key: readFileSync(key), cert: readFileSync(certificate) },
    answer(routes),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  onTestFinished(() => server.closeAllConnections());
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, certificate };
}

/**
 * A fresh self-signed certificate for 127.0.0.1 (and the host `names` given, such as the
 * `*.test` names a test's proxy resolves) and its key, written into `dir` with `openssl`: the
 * certificate is its own CA, for `NODE_EXTRA_CA_CERTS` or a client's CA folder.
 */
export function throwawayCertificate(
  dir: string,
  names: readonly string[] = [],
): { key: string; certificate: string } {
  const key = `${dir}/key.pem`;
  const certificate = `${dir}/cert.pem`;
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1"],
      "-addext",
      `subjectAltName=${["IP:127.0.0.1", ...names.map((name) => `DNS:${name}`)].join(",")}`,
    ],
    { stdio: "ignore" },
  );
  return { key, certificate };
}

// --- internal ---

function answer(routes: Record<string, Buffer | RequestListener>): RequestListener {
  return (request, response) => {
    // a route is its path, with its query or without
    const path = request.url ?? "";
    const route = routes[path] ?? routes[path.replace(/\?.*$/, "")];
    if (route === undefined) {
      response.writeHead(404).end();
    } else if (Buffer.isBuffer(route)) {
      response
        .writeHead(200, { "content-type": "application/gzip", "content-length": route.length })
        .end(route);
    } else route(request, response);
  };
}
