import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { digestTree } from "@skillshelf/core";
import { folderRoutes, serveHttps, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../test/_run.js";
import { changeSandbox } from "../test/_sandbox.js";

/** A collection of two skills: a lone SKILL.md, and one with an executable script. */
function collection(): string {
  return testdir({
    "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
    "skills/deploy/SKILL.md": skillFile("deploy", "Deploy the site."),
    "skills/deploy/scripts/run.sh": { content: "echo run\n", mode: 0o755 },
  });
}

describe("publish to a static site, install it back over https (issue 27, items 2 and 5)", () => {
  it("lists the site's skills, installs the chosen ones at the published digests, and sees a new publish", async () => {
    const box = changeSandbox();
    const from = collection();
    const site = testdir();
    const published = await box.run("publish", from, `site:${site}`, "--json");
    expect(published.status, published.stderr).toBe(0);
    const digests = Object.fromEntries(
      (JSON.parse(published.stdout).skills as { name: string; digest: string }[]).map((skill) => [
        skill.name,
        skill.digest,
      ]),
    );
    expect(digests).toEqual({
      deploy: `sha256:${digestTree(join(from, "skills/deploy")).digest}`,
      pdf: `sha256:${digestTree(join(from, "skills/pdf")).digest}`,
    });
    // the https server answers from this record, so a later publish is served as it lands
    const routes = folderRoutes(site);
    const { url, certificate } = await serveHttps(routes);
    const env = { ...box.env, NODE_EXTRA_CA_CERTS: certificate };
    const cli = (...args: string[]) => runCliAsync(args, { cwd: box.cwd, env });

    const unchosen = await cli("install", url, "--user", "--json");
    expect(unchosen.status).toBe(1);
    expect(unchosen.stdout).toContain("collection_choice_required");
    expect(unchosen.stdout).toContain('"deploy"');

    const installed = await cli("install", url, "--skill", "*", "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    const lock = box.userLock();
    expect(Object.keys(lock).sort()).toEqual(["deploy", "pdf"]);
    expect(lock.deploy?.source).toEqual({ type: "well-known", url, path: "deploy" });
    // the script came through the archive as it was, executable bit and all
    expect(digestTree(join(box.configDir, "packages/deploy/scripts")).digest).toBe(
      digestTree(join(from, "skills/deploy/scripts")).digest,
    );

    const current = await cli("update", "--check", "--user", "--json");
    expect(current.status, current.stdout).toBe(0);
    appendFileSync(join(from, "skills/pdf/SKILL.md"), "More steps.\n");
    expect((await box.run("publish", join(from, "skills/pdf"), `site:${site}`)).status).toBe(0);
    Object.assign(routes, folderRoutes(site));
    const stale = await cli("update", "--check", "--user", "--json");
    expect(stale.status).toBe(1);
    const checks = JSON.parse(stale.stdout).checks as { id: string; status: string }[];
    expect(
      checks.map(({ id, status }) => ({ id, status })).sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id: "deploy", status: "up-to-date" },
      { id: "pdf", status: "out-of-date" },
    ]);
    const updated = await cli("update", "pdf", "--user", "--yes");
    expect(updated.status, updated.stderr).toBe(0);
    expect((await cli("verify")).status).toBe(0);
  });
});
