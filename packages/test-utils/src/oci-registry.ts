import { execFile, execFileSync } from "node:child_process";
import { createHash, createPrivateKey, randomBytes, sign, X509Certificate } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { request } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { freePort, startDaemon } from "./_daemon.js";
import { throwawayCertificate } from "./serve.js";
import { testdir } from "./testdir.js";

const IMAGE_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

/** A CNCF distribution registry on loopback, with one user (htpasswd). */
export interface OciRegistry {
  /** `127.0.0.1:<port>`. */
  readonly host: string;
  /** `oci://host` (TLS) or `oci+http://host`: what a source names it by. */
  readonly base: string;
  readonly username: string;
  readonly password: string;
  /** With TLS: its certificate (its own CA), for `NODE_EXTRA_CA_CERTS`, and a folder holding it as `ca.crt` (skopeo's `--cert-dir`). */
  readonly certificate?: string | undefined;
  readonly certDir?: string | undefined;
  /** With token auth: the token service's `host:port`. */
  readonly tokenHost?: string | undefined;
  /** With token auth: the `Authorization` of every request the token service received (`""` for none). */
  readonly tokenRequests: readonly string[];
  close(): Promise<void>;
}

/**
 * Start the registry of Debian's `docker-registry` package (CNCF distribution) on a free loopback
 * port with a throwaway storage folder, over TLS with a throwaway certificate unless `tls` is
 * false. It asks for its user with htpasswd (HTTP Basic), or with `auth: "token"` sends clients to
 * a token service on another loopback port (`tokenHost`) that takes the user with HTTP Basic and
 * answers with a token the registry checks (a JWT signed with a throwaway key it trusts), as
 * Docker Hub and most hosted registries do. Ready when `/v2/` answers. Call `close()`.
 */
export async function startOciRegistry(
  options: {
    readonly tls?: boolean;
    readonly auth?: "htpasswd" | "token";
    /** Host names its certificate also holds (a test's proxy resolves `*.test` to loopback). */
    readonly names?: readonly string[];
  } = {},
): Promise<OciRegistry> {
  const tls = options.tls !== false;
  const dir = testdir();
  const username = "team";
  const password = "team-registry-pass";
  writeFileSync(
    join(dir, "htpasswd"),
    execFileSync("htpasswd", ["-Bbn", username, password], { encoding: "utf8" }),
  );
  const certDir = testdir();
  const pem = tls ? throwawayCertificate(certDir, options.names) : undefined;
  if (pem !== undefined) writeFileSync(join(certDir, "ca.crt"), readFileSync(pem.certificate));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const tokens =
    options.auth === "token"
      ? await startTokenService(testdir(), { username, password })
      : undefined;
  writeFileSync(
    join(dir, "config.yml"),
    [
      "version: 0.1",
      "log: { level: error }",
      `storage: { filesystem: { rootdirectory: ${join(dir, "data")} } }`,
      "http:",
      `  addr: ${host}`,
      ...(pem === undefined ? [] : [`  tls: { certificate: ${pem.certificate}, key: ${pem.key} }`]),
      tokens === undefined
        ? `auth: { htpasswd: { realm: test, path: ${join(dir, "htpasswd")} } }`
        : `auth: { token: { realm: "${tokens.realm}", service: ${TOKEN_SERVICE}, issuer: ${TOKEN_ISSUER}, rootcertbundle: ${tokens.certificate} } }`,
      "",
    ].join("\n"),
  );
  const daemon = await startDaemon("docker-registry", ["serve", join(dir, "config.yml")], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir },
    ready: () => answers(host, pem?.certificate),
  });
  return {
    host,
    base: tls ? `oci://${host}` : `oci+http://${host}`,
    username,
    password,
    certificate: pem?.certificate,
    certDir: pem === undefined ? undefined : certDir,
    tokenHost: tokens?.host,
    tokenRequests: tokens?.requests ?? [],
    // its folders go too: a benchmark outside vitest has no test to clean up after
    close: async () => {
      await daemon.close();
      await tokens?.close();
      for (const folder of [dir, certDir]) rmSync(folder, { recursive: true, force: true });
    },
  };
}

// --- internal ---

const TOKEN_SERVICE = "test-registry";
const TOKEN_ISSUER = "test-issuer";

/**
 * A token service on loopback: `GET /token?service=…&scope=repository:<name>:<actions>` with the
 * user's HTTP Basic credentials answers `{"token": <JWT>}` granting that scope, signed (ES256)
 * with a throwaway key whose certificate rides in the token's `x5c` and is the registry's root.
 */
async function startTokenService(
  dir: string,
  user: { readonly username: string; readonly password: string },
): Promise<{
  realm: string;
  host: string;
  certificate: string;
  requests: string[];
  close(): Promise<void>;
}> {
  const requests: string[] = [];
  const { key, certificate } = throwawayCertificate(dir);
  const signingKey = createPrivateKey(readFileSync(key));
  const der = new X509Certificate(readFileSync(certificate)).raw.toString("base64");
  const expected = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString("base64")}`;
  const server = createServer((request, response) => {
    requests.push(request.headers.authorization ?? "");
    const url = new URL(request.url ?? "/", "http://token");
    if (url.pathname !== "/token" || request.headers.authorization !== expected) {
      response.writeHead(401).end();
      return;
    }
    const [type, name, actions] = (url.searchParams.get("scope") ?? "").split(":");
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: TOKEN_ISSUER,
      sub: user.username,
      aud: url.searchParams.get("service"),
      exp: now + 600,
      nbf: now - 60,
      iat: now,
      jti: randomBytes(8).toString("hex"),
      access: [{ type, name, actions: (actions ?? "").split(",") }],
    };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const signed = `${encode({ typ: "JWT", alg: "ES256", x5c: [der] })}.${encode(claims)}`;
    const signature = sign("sha256", Buffer.from(signed), {
      key: signingKey,
      dsaEncoding: "ieee-p1363",
    });
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ token: `${signed}.${signature.toString("base64url")}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    realm: `http://${host}/token`,
    host,
    certificate,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** True when `/v2/` answers (200, or 401 asking for the user). */
async function answers(host: string, certificate: string | undefined): Promise<boolean> {
  if (certificate === undefined)
    return [200, 401].includes((await fetch(`http://${host}/v2/`)).status);
  const [hostname, port] = host.split(":");
  return new Promise((resolve) => {
    const asked = request(
      { hostname, port, path: "/v2/", ca: readFileSync(certificate) },
      (response) => {
        response.resume();
        resolve([200, 401].includes(response.statusCode ?? 0));
      },
    );
    asked.on("error", () => resolve(false));
    asked.end();
  });
}

/**
 * Write an OCI image layout at `layout` holding one plain image — an image config and the one
 * gzipped tar layer `layer` — tagged `tag`, for `skopeo copy oci:<layout>:<tag> …` to push as an
 * independent client would.
 */
export function writeImageLayout(layout: string, layer: Buffer, tag: string): void {
  const digest = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  const blob = (bytes: Buffer) => {
    mkdirSync(join(layout, "blobs", "sha256"), { recursive: true });
    writeFileSync(join(layout, "blobs", "sha256", digest(bytes).slice(7)), bytes);
    return { digest: digest(bytes), size: bytes.length };
  };
  const config = Buffer.from(
    JSON.stringify({
      architecture: "amd64",
      os: "linux",
      rootfs: { type: "layers", diff_ids: [digest(gunzipSync(layer))] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: IMAGE_MANIFEST,
      config: { mediaType: "application/vnd.oci.image.config.v1+json", ...blob(config) },
      layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", ...blob(layer) }],
    }),
  );
  writeFileSync(join(layout, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  writeFileSync(
    join(layout, "index.json"),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: IMAGE_MANIFEST,
          ...blob(manifest),
          annotations: { "org.opencontainers.image.ref.name": tag },
        },
      ],
    }),
  );
}

/**
 * Push one plain image holding the gzipped tar `layer` to `registry` as `repository:tag` the way
 * an independent client does (skopeo, from an OCI image layout); what a source names it by.
 * Async: a token service of this process answers skopeo from its event loop.
 */
export async function pushPlainImage(
  registry: OciRegistry,
  layer: Buffer,
  repository: string,
  tag: string,
): Promise<string> {
  const layout = testdir();
  writeImageLayout(layout, layer, tag);
  await promisify(execFile)("skopeo", [
    "copy",
    "--dest-tls-verify=false",
    "--dest-creds",
    `${registry.username}:${registry.password}`,
    `oci:${layout}:${tag}`,
    `docker://${registry.host}/${repository}:${tag}`,
  ]);
  return `${registry.base}/${repository}:${tag}`;
}

/** Write `home/.docker/config.json` holding the registry's user, as `docker login` does. */
export function writeDockerAuth(home: string, registry: OciRegistry): void {
  mkdirSync(join(home, ".docker"), { recursive: true });
  const auth = Buffer.from(`${registry.username}:${registry.password}`).toString("base64");
  writeFileSync(
    join(home, ".docker", "config.json"),
    JSON.stringify({ auths: { [registry.host]: { auth } } }),
  );
}
