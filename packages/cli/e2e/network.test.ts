import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stageSource } from "@skillshelf/sources";
import {
  folderRoutes,
  freePort,
  type OciRegistry,
  serve,
  serveHttps,
  skillFile,
  startForwardProxy,
  startOciRegistry,
  tarGz,
  testdir,
  writeTree,
} from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpServer } from "../test/_mcp.js";
import { type CliRun, EXAMPLES, runCliAsync } from "../test/_run.js";
import { changeSandbox, codesOf, everyFileText } from "../test/_sandbox.js";

// Issue 51, item 2: in a network where a proxy is the only way out, every download of our own
// goes through it. The test's proxy resolves `*.test` to loopback, so the servers the test starts
// are reached through it by names only it knows (loopback itself is never proxied).

const PROXY_PASSWORD = "pr0xy-secret-never-shown";

let registry: OciRegistry;
beforeAll(async () => {
  registry = await startOciRegistry({ names: ["registry.test"] });
}, 60_000);
afterAll(() => registry?.close());

/** One file holding every certificate given, for NODE_EXTRA_CA_CERTS. */
function certificates(...files: readonly string[]): string {
  const bundle = join(testdir(), "ca.pem");
  writeFileSync(bundle, files.map((file) => readFileSync(file, "utf8")).join("\n"));
  return bundle;
}

/** `~/.docker/config.json` holding the registry's user for `host`, as `docker login host` writes it. */
function dockerLogin(home: string, host: string): void {
  mkdirSync(join(home, ".docker"), { recursive: true });
  const auth = Buffer.from(`${registry.username}:${registry.password}`).toString("base64");
  writeFileSync(
    join(home, ".docker", "config.json"),
    JSON.stringify({ auths: { [host]: { auth } } }),
  );
}

describe("every download of our own through the environment's proxy", () => {
  it("fetches an archive, a site, an index file and an OCI registry through it; NO_PROXY goes around it", async () => {
    const box = changeSandbox();
    const proxy = await startForwardProxy({ user: { name: "corp", password: PROXY_PASSWORD } });
    const archive = await serveHttps(
      { "/kit.tar.gz": tarGz([{ path: "kit/SKILL.md", content: skillFile("kit", "The kit.") }]) },
      ["files.test"],
    );
    const siteDir = testdir();
    const collection = testdir({ "skills/deploy/SKILL.md": skillFile("deploy", "Deploy it.") });
    expect((await box.run("publish", collection, `site:${siteDir}`)).status).toBe(0);
    const site = await serveHttps(folderRoutes(siteDir), ["site.test"]);
    const index = await serveHttps(
      { "/library.yaml": readFileSync(join(EXAMPLES, "library", "library.yaml")) },
      ["index.test"],
    );
    const port = (url: string) => new URL(url).port;
    const registryHost = `registry.test:${registry.host.split(":")[1]}`;
    dockerLogin(box.home, registryHost);
    const env = {
      ...box.env,
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: certificates(
        archive.certificate,
        site.certificate,
        index.certificate,
        registry.certificate ?? "",
      ),
    };
    const runs: CliRun[] = [];
    const cli = async (extra: Record<string, string>, ...args: string[]) => {
      const run = await runCliAsync(args, { cwd: box.cwd, env: { ...env, ...extra } });
      runs.push(run);
      return run;
    };
    const ok = async (...args: string[]) => {
      const run = await cli({}, ...args);
      expect(run.status, `${args.join(" ")}\n${run.stdout}${run.stderr}`).toBe(0);
    };
    const files = `https://files.test:${port(archive.url)}`;
    const siteUrl = `https://site.test:${port(site.url)}`;
    await ok("install", `${files}/kit.tar.gz`, "--user", "--yes");
    await ok("install", siteUrl, "--skill", "*", "--user", "--yes");
    await ok("sources", "add", `https://index.test:${port(index.url)}/library.yaml`, "--user");
    const from = testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    await ok("publish", join(from, "pdf"), `oci://${registryHost}/team:1.0`);
    await ok("install", `oci://${registryHost}/team/pdf:1.0`, "--user", "--yes");
    expect(Object.keys(box.userLock()).sort()).toEqual(["deploy", "kit", "pdf"]);
    const tunnels = new Set(proxy.requests.map((request) => `${request.method} ${request.target}`));
    expect([...tunnels].sort()).toEqual(
      [
        `CONNECT files.test:${port(archive.url)}`,
        `CONNECT index.test:${port(index.url)}`,
        `CONNECT ${registryHost}`,
        `CONNECT site.test:${port(site.url)}`,
      ].sort(),
    );
    expect(new Set(proxy.requests.map((request) => request.user))).toEqual(new Set(["corp"]));

    await ok("sbom", "--user", "--output", join(box.cwd, "sbom.json"));

    // NO_PROXY: files.test is reached directly, where no name server knows it
    const asked = proxy.requests.length;
    const around = await cli(
      { NO_PROXY: "files.test" },
      "install",
      `${files}/kit.tar.gz`,
      "--user",
      "--yes",
      "--force",
      "--json",
    );
    expect(codesOf(around)).toContain("download_failed");
    expect(proxy.requests.length).toBe(asked);

    // doctor names the proxy each kind of source goes through, never its password
    const doctor = JSON.parse((await cli({}, "doctor", "--json")).stdout) as {
      network: { sources: string[]; https?: string }[];
    };
    const proxyName = `http://${new URL(proxy.url).host}`;
    expect(doctor.network.map((route) => [route.sources.join(","), route.https])).toEqual([
      ["archive,site,oci,index,mcp", proxyName],
      ["npm", proxyName],
      ["git", proxyName],
    ]);

    for (const run of runs) {
      expect(run.stdout + run.stderr).not.toContain(PROXY_PASSWORD);
      expect(run.stdout + run.stderr).not.toContain(registry.password);
    }
    // the lock, the state, the copies, the SBOM: no proxy password, no registry password
    for (const text of [...everyFileText(box.configDir), ...everyFileText(box.cwd)]) {
      expect(text).not.toContain(PROXY_PASSWORD);
      expect(text).not.toContain(registry.password);
    }
  });

  it("codes a proxy that is not there and one that wants credentials, naming it without them", async () => {
    const box = changeSandbox();
    const archive = await serveHttps({ "/kit.tar.gz": Buffer.from("x") }, ["files.test"]);
    const url = `https://files.test:${new URL(archive.url).port}/kit.tar.gz`;
    const closed = `http://127.0.0.1:${await freePort()}`;
    const install = (proxyUrl: string) =>
      runCliAsync(["install", url, "--user", "--yes", "--json"], {
        cwd: box.cwd,
        env: { ...box.env, HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: archive.certificate },
      });
    const unreachable = await install(closed);
    expect(codesOf(unreachable)).toContain("proxy_unreachable");
    expect(unreachable.stdout).toContain(closed);
    const guarded = await startForwardProxy({ user: { name: "corp", password: PROXY_PASSWORD } });
    const refused = await install(guarded.url.replace(PROXY_PASSWORD, "wrong-guess"));
    expect(codesOf(refused)).toContain("proxy_auth_required");
    expect(refused.stdout + refused.stderr).not.toContain("wrong-guess");
    const invalid = await install("socks5://127.0.0.1:1080");
    expect(codesOf(invalid)).toContain("proxy_invalid");
  });

  it("speaks to an MCP server over Streamable HTTP through it", async () => {
    const box = changeSandbox();
    const project = testdir();
    writeTree(join(project, ".skillshelf", "skills"), {
      "alpha/SKILL.md": skillFile("alpha", "First skill."),
    });
    const server = await httpServer(["--allow-host", "mcp.test", "--cwd", project], {
      cwd: project,
      env: box.env,
    });
    try {
      const proxy = await startForwardProxy();
      const url = `http://mcp.test:${new URL(server.url).port}/mcp`;
      const staged = await stageSource(
        { type: "mcp", url, path: "alpha" },
        { env: { http_proxy: proxy.url } },
      );
      try {
        expect(readdirSync(staged.dir)).toEqual(["SKILL.md"]);
      } finally {
        staged.release();
      }
      expect(new Set(proxy.requests.map((request) => request.target))).toEqual(
        new Set([`mcp.test:${new URL(server.url).port}`]),
      );
    } finally {
      await server.stop();
    }
  });
});

describe("a server that speaks plain HTTP where https was named (issue 51, item 4)", () => {
  it("says to name a registry on this machine oci+http://, and a download http://, instead of OpenSSL's words", async () => {
    const box = changeSandbox();
    const plain = await startOciRegistry({ tls: false });
    try {
      const run = await box.run(
        "install",
        `oci://${plain.host}/team/pdf:1`,
        "--user",
        "--yes",
        "--json",
      );
      const [step] = (
        JSON.parse(run.stdout) as {
          plan: { steps: { refusal?: { code: string; hint: string } }[] };
        }
      ).plan.steps;
      const diagnostic = step?.refusal;
      expect(diagnostic?.code).toBe("server_not_tls");
      expect(diagnostic?.hint).toContain(`oci+http://${plain.host}/team/pdf`);
      expect(run.stdout).not.toMatch(/wrong version number/i);
    } finally {
      await plain.close();
    }
    const files = await serve({ "/kit.tar.gz": Buffer.from("x") });
    const https = files.replace("http:", "https:");
    const run = await box.run("install", `${https}/kit.tar.gz`, "--user", "--yes", "--json");
    expect(codesOf(run)).toContain("server_not_tls");
    expect(run.stdout).toContain(`${files}/kit.tar.gz`);
  });
});
