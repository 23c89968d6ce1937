import type { IncomingMessage, ServerResponse } from "node:http";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { isSkillshelfError } from "@skillshelf/core";
import {
  createHttpClient,
  type OciCredentials,
  proxyName,
  readProxySettings,
  stageSource,
} from "@skillshelf/sources";
import {
  freePort,
  pushPlainImage,
  serve,
  skillFile,
  startForwardProxy,
  startOciRegistry,
  tarGz,
} from "@skillshelf/test-utils";
import { describe, expect, it, onTestFinished } from "vitest";
import { sourceOf, stageFailure } from "./_staging.js";

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

/** The code and details of what `work` throws (a test fails when it does not). */
async function failure(work: () => Promise<unknown>): Promise<{ code: string; details: unknown }> {
  try {
    await work();
  } catch (error) {
    if (isSkillshelfError(error)) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error("it did not fail");
}

describe("issue 51 item 1: credentials go to the registry's own token service, never to the realm's host", () => {
  it("asks a realm on another port with the registry's credentials, never the realm host's own", async () => {
    const registry = await startOciRegistry({ tls: false, auth: "token" });
    try {
      const pushed = await pushPlainImage(
        registry,
        tarGz([{ path: "SKILL.md", content: skillFile("pdf", "PDF work.") }]),
        "team/pdf",
        "v1",
      );
      const source = sourceOf(pushed);
      const realmOwn = { username: "realm-user", password: "realm-host-secret" };
      const user = { username: registry.username, password: registry.password };
      const kept =
        (byHost: Record<string, typeof user>): OciCredentials =>
        async (host) =>
          byHost[host];
      const before = registry.tokenRequests.length;
      // the user keeps credentials for both hosts: the realm gets the registry's
      const staged = await stageSource(source, {
        oci: kept({ [registry.host]: user, [registry.tokenHost ?? ""]: realmOwn }),
      });
      staged.release();
      const asked = registry.tokenRequests.slice(before);
      expect(asked.length).toBeGreaterThan(0);
      expect(new Set(asked)).toEqual(new Set([basic(user.username, user.password)]));
      // credentials kept only for the realm's host are never sent to it
      const onlyRealm = registry.tokenRequests.length;
      expect(
        await stageFailure(source, { oci: kept({ [registry.tokenHost ?? ""]: user }) }),
      ).toMatchObject({
        code: "token_failed",
        details: { url: `http://${registry.tokenHost}/token`, host: registry.host, status: 401 },
      });
      expect(new Set(registry.tokenRequests.slice(onlyRealm))).toEqual(new Set([""]));
    } finally {
      await registry.close();
    }
  });

  it("never sends a host's credentials to a realm a hostile registry names there", async () => {
    const seen: string[] = [];
    const victim = await serve({
      "/token": (request: IncomingMessage, response: ServerResponse) => {
        const scope = new URL(request.url ?? "", "http://x").searchParams.get("scope");
        seen.push(`${request.headers.authorization ?? ""} ${scope}`);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ token: "minted-for-the-victim" }));
      },
    });
    const tokensBack: string[] = [];
    const hostile = await serve({
      "/v2/team/pdf/manifests/v1": (request: IncomingMessage, response: ServerResponse) => {
        tokensBack.push(request.headers.authorization ?? "");
        response.writeHead(401, {
          "www-authenticate": `Bearer realm="${victim}/token",service="victim",scope="repository:private/secrets:pull,push"`,
        });
        response.end();
      },
    });
    const victimHost = new URL(victim).host;
    const outcome = await stageFailure(
      sourceOf(`oci+http://${new URL(hostile).host}/team/pdf:v1`),
      {
        oci: async (host) =>
          host === victimHost ? { username: "me", password: "victim-secret" } : undefined,
      },
    );
    // the anonymous token is refused by the registry that asked for it, and nothing else was sent
    expect(outcome?.code).toBe("auth_refused");
    // the realm was asked anonymously, for the repository we asked for, not the one it picked
    expect(seen).toEqual([" repository:team/pdf:pull"]);
    expect(tokensBack).toEqual(["", "Bearer minted-for-the-victim"]);
  });

  it.each([
    ["plain http to another host", "http://registry.example.com/token", "token_realm_insecure"],
    ["a realm that is not a URL", "not a url", "token_realm_insecure"],
  ])("refuses %s before asking it (token_realm_insecure)", async (_name, realm, code) => {
    const hostile = await serve({
      "/v2/team/pdf/manifests/v1": (_request: IncomingMessage, response: ServerResponse) => {
        response.writeHead(401, { "www-authenticate": `Bearer realm="${realm}",service="s"` });
        response.end();
      },
    });
    const outcome = await stageFailure(
      sourceOf(`oci+http://${new URL(hostile).host}/team/pdf:v1`),
      {
        oci: async () => ({ username: "me", password: "registry-secret" }),
      },
    );
    expect(outcome).toMatchObject({ code, details: { url: realm } });
  });

  it("names the realm when its token service fails (token_failed, not stage_failed)", async () => {
    const tokens = await serve({
      "/token": (_request: IncomingMessage, response: ServerResponse) =>
        response.writeHead(500).end(),
    });
    const registry = await serve({
      "/v2/team/pdf/manifests/v1": (_request: IncomingMessage, response: ServerResponse) =>
        response
          .writeHead(401, { "www-authenticate": `Bearer realm="${tokens}/token",service="s"` })
          .end(),
    });
    expect(
      await stageFailure(sourceOf(`oci+http://${new URL(registry).host}/team/pdf:v1`)),
    ).toMatchObject({ code: "token_failed", details: { url: `${tokens}/token`, status: 500 } });
  });
});

describe("issue 51 item 2: the proxy variables, read as curl, git and Go read them", () => {
  it.each<[string, Record<string, string>, string, string | undefined]>([
    // url, then the proxy it goes through
    [
      "https_proxy for https",
      { https_proxy: "http://p:3128" },
      "https://a.example/x",
      "http://p:3128",
    ],
    ["upper case too", { HTTPS_PROXY: "http://p:3128" }, "https://a.example/x", "http://p:3128"],
    [
      "lower case first",
      { https_proxy: "http://low:1", HTTPS_PROXY: "http://up:2" },
      "https://a.example/x",
      "http://low:1",
    ],
    ["http_proxy for http", { http_proxy: "p:8080" }, "http://a.example/x", "http://p:8080"],
    [
      "no https_proxy: https direct",
      { http_proxy: "http://p:1" },
      "https://a.example/x",
      undefined,
    ],
    ["loopback never", { https_proxy: "http://p:1" }, "https://127.0.0.1:5000/x", undefined],
    ["localhost never", { https_proxy: "http://p:1" }, "https://localhost/x", undefined],
    ["::1 never", { https_proxy: "http://p:1" }, "https://[::1]:8443/x", undefined],
    [
      "NO_PROXY host and below",
      { https_proxy: "http://p:1", NO_PROXY: "example.com" },
      "https://a.b.example.com/x",
      undefined,
    ],
    [
      "NO_PROXY suffix with a dot",
      { https_proxy: "http://p:1", no_proxy: ".corp.internal" },
      "https://git.corp.internal/x",
      undefined,
    ],
    [
      "NO_PROXY not a mere string suffix",
      { https_proxy: "http://p:1", no_proxy: "example.com" },
      "https://badexample.com/x",
      "http://p:1",
    ],
    [
      "NO_PROXY with its port",
      { https_proxy: "http://p:1", no_proxy: "files.test:8443" },
      "https://files.test:8443/x",
      undefined,
    ],
    [
      "NO_PROXY with another port",
      { https_proxy: "http://p:1", no_proxy: "files.test:8443" },
      "https://files.test/x",
      "http://p:1",
    ],
    ["NO_PROXY *", { https_proxy: "http://p:1", NO_PROXY: "*" }, "https://a.example/x", undefined],
  ])("%s", (_name, env, url, expected) => {
    expect(createHttpClient(env).proxyFor(new URL(url))?.href.replace(/\/$/, "")).toBe(expected);
  });

  it("names a proxy without its user or password, and refuses one that is no http(s) URL", () => {
    const settings = readProxySettings({ HTTPS_PROXY: "http://alice:s3cret@proxy.corp:3128" });
    expect(settings.https === undefined ? undefined : proxyName(settings.https)).toBe(
      "http://proxy.corp:3128",
    );
    expect(() => readProxySettings({ https_proxy: "socks5://p:1080" })).toThrow(
      expect.objectContaining({ code: "proxy_invalid", details: { variable: "https_proxy" } }),
    );
  });

  it("goes through the proxy (CONNECT) to a name only the proxy resolves; NO_PROXY and loopback go around it", async () => {
    const proxy = await startForwardProxy();
    const files = await serve({ "/x": Buffer.from("through") });
    const port = new URL(files).port;
    const client = createHttpClient({ http_proxy: proxy.url });
    const response = await client.request(new URL(`http://files.test:${port}/x`));
    expect((await response.bytes(100)).toString()).toBe("through");
    expect(proxy.requests).toEqual([{ method: "CONNECT", target: `files.test:${port}`, user: "" }]);
    // loopback is reached directly, NO_PROXY'd names too (files.test is then not found at all)
    await (await client.request(new URL(`${files}/x`))).bytes(100);
    const around = createHttpClient({ http_proxy: proxy.url, no_proxy: `files.test:${port}` });
    expect(
      await failure(() => around.request(new URL(`http://files.test:${port}/x`))),
    ).toMatchObject({ code: "download_failed" });
    expect(proxy.requests).toHaveLength(1);
  });

  it("ends at the caller's timeout when a proxy never answers CONNECT, and codes one that hangs up", async () => {
    const listen = async (onSocket: (socket: Socket) => void) => {
      const server = createServer(onSocket);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      onTestFinished(() => {
        server.close();
      });
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const sockets: Socket[] = [];
    const mute = await listen((socket) => sockets.push(socket));
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
    });
    const url = new URL("https://files.test/kit.tar.gz");
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException("late", "TimeoutError")), 300);
    expect(
      await failure(() =>
        createHttpClient({ https_proxy: mute }).request(url, { signal: controller.signal }),
      ),
    ).toMatchObject({ code: "download_timeout", details: { proxy: mute } });
    const hangUp = await listen((socket) => socket.once("data", () => socket.destroy()));
    expect(
      await failure(() => createHttpClient({ https_proxy: hangUp }).request(url)),
    ).toMatchObject({ code: "proxy_refused", details: { proxy: hangUp } });
  });

  it("codes a proxy that is not there, and one that wants credentials, naming it without them", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const url = new URL("http://files.test:1/x");
    expect(
      await failure(() => createHttpClient({ http_proxy: closed }).request(url)),
    ).toMatchObject({ code: "proxy_unreachable", details: { proxy: closed, url: url.href } });
    const guarded = await startForwardProxy({ user: { name: "alice", password: "pw" } });
    const bare = guarded.url.replace("alice:pw@", "");
    expect(await failure(() => createHttpClient({ http_proxy: bare }).request(url))).toMatchObject({
      code: "proxy_auth_required",
      details: { proxy: bare, status: 407 },
    });
    // a proxy that cannot reach the host answers CONNECT with an error of its own
    const open = await startForwardProxy();
    const nothing = new URL(`http://closed.test:${await freePort()}/x`);
    expect(
      await failure(() => createHttpClient({ http_proxy: open.url }).request(nothing)),
    ).toMatchObject({ code: "proxy_refused", details: { proxy: open.url } });
    const wrong = guarded.url.replace(":pw@", ":wrong-password@");
    const refused = await failure(() => createHttpClient({ http_proxy: wrong }).request(url));
    expect(refused).toMatchObject({ code: "proxy_auth_required", details: { proxy: bare } });
    expect(JSON.stringify(refused)).not.toContain("wrong-password");
  });
});
