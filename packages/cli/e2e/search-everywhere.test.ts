import {
  folderRoutes,
  type OciRegistry,
  serveHttps,
  skillFile,
  startOciRegistry,
  testdir,
  writeDockerAuth,
} from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliAsync } from "../test/_run.js";
import { changeSandbox } from "../test/_sandbox.js";

let registry: OciRegistry;
beforeAll(async () => {
  registry = await startOciRegistry();
}, 60_000);
afterAll(() => registry?.close());

function collection(): string {
  return testdir({
    "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files.", "metadata:\n  version: 1.0.0\n"),
    "skills/deploy/SKILL.md": skillFile("deploy", "Deploy the site to production."),
  });
}

describe("search covers .well-known sites and OCI repositories added as sources (issue 27, item 6)", () => {
  it("finds a site's skills and installs one by name, at the digest the index pinned", async () => {
    const box = changeSandbox();
    const site = testdir();
    expect((await box.run("publish", collection(), `site:${site}`)).status).toBe(0);
    const { url, certificate } = await serveHttps(folderRoutes(site));
    const env = { ...box.env, NODE_EXTRA_CA_CERTS: certificate };
    const cli = (...args: string[]) => runCliAsync(args, { cwd: box.cwd, env });
    const added = await cli("sources", "add", url, "--user");
    expect(added.status, added.stderr).toBe(0);
    const found = JSON.parse((await cli("search", "production", "--json")).stdout) as {
      results: { name: string; sourceUrl?: string }[];
    };
    expect(found.results.map((row) => row.name)).toEqual(["deploy"]);
    const installed = await cli("install", "deploy", "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    expect(box.userLock().deploy?.source).toEqual({ type: "well-known", url, path: "deploy" });
  });

  it("finds every repository below an OCI namespace and installs one by name", async () => {
    const box = changeSandbox();
    writeDockerAuth(box.home, registry);
    const env = { ...box.env, NODE_EXTRA_CA_CERTS: registry.certificate ?? "" };
    const cli = (...args: string[]) => runCliAsync(args, { cwd: box.cwd, env });
    expect((await cli("publish", collection(), `${registry.base}/team:1.0.0`)).status).toBe(0);
    const added = await cli("sources", "add", `${registry.base}/team`, "--user");
    expect(added.status, added.stderr).toBe(0);
    const found = JSON.parse((await cli("search", "pdf", "--json")).stdout) as {
      results: { name: string }[];
    };
    expect(found.results.map((row) => row.name)).toEqual(["pdf"]);
    const installed = await cli("install", "pdf", "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    expect(box.userLock().pdf?.source).toEqual({
      type: "oci",
      url: `${registry.base}/team/pdf`,
      ref: "1.0.0",
    });
  });
});
