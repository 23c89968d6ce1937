import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bareClone, gitRepo, serveHttps, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { makeKey } from "../test/_keys.js";
import { withStdioSkills } from "../test/_mcp.js";
import { runCliAsync } from "../test/_run.js";
import { type ChangeSandbox, changeSandbox, codesOf, twoSkillsRepo } from "../test/_sandbox.js";

/** `text` signed with `key` as ssh-keygen signs for Skillshelf (namespace `skillshelf`). */
function signed(text: string, key: { readonly path: string }): Buffer {
  const file = join(testdir(), "feed.json");
  writeFileSync(file, text);
  execFileSync("ssh-keygen", ["-q", "-Y", "sign", "-f", key.path, "-n", "skillshelf", file]);
  return readFileSync(`${file}.sig`);
}

/** A feed of one advisory revoking `revoked`. */
function feed(revoked: { digests?: string[]; sources?: string[] }): string {
  return JSON.stringify({
    version: 1,
    advisories: [
      {
        id: "SKS-2026-0001",
        summary: "Sends the user's SSH keys to a paste site.",
        severity: "critical",
        published: "2026-12-01T00:00:00Z",
        revoked: { digests: [], sources: [], ...revoked },
      },
    ],
  });
}

/** Two skills installed into `box`'s user scope from one repository; the repository's path. */
async function installTwo(box: ChangeSandbox): Promise<string> {
  const repo = twoSkillsRepo();
  const installed = await box.runAsync("install", repo, "--skill", "*", "--user", "--yes");
  expect(installed.status, installed.stderr).toBe(0);
  return repo;
}

describe("advisories: revoke a digest everywhere (issue 59, item 4)", () => {
  it("follows a signed feed over HTTPS, then check, verify, the runtime and MCP withhold the revoked copy, and install refuses it", async () => {
    const box = changeSandbox();
    const repo = await installTwo(box);
    const pdf = (box.userLock() as Record<string, { digest: string }>).pdf?.digest as string;
    const key = makeKey("security@acme.example");
    const text = feed({ digests: [`sha256:${pdf}`] });
    const { url, certificate } = await serveHttps({
      "/feed.json": Buffer.from(text),
      "/feed.json.sig": signed(text, key),
      "/broken.json": Buffer.from("not json"),
    });
    const env = { ...box.env, NODE_EXTRA_CA_CERTS: certificate };
    const cli = (...args: string[]) => runCliAsync(args, { cwd: box.cwd, env });

    // bad input first: a feed that is not JSON, and a signer that did not sign it
    const broken = await cli("advisories", "add", `${url}/broken.json`, "--json");
    expect(broken.status).toBe(1);
    expect(broken.stderr + broken.stdout).toContain("advisory_feed_invalid");
    const other = makeKey("someone@else.example");
    const wrong = await cli(
      "advisories",
      "add",
      `${url}/feed.json`,
      "--signer",
      `${other.path}.pub`,
    );
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain("signature_invalid");

    const added = await cli("advisories", "add", `${url}/feed.json`, "--signer", `${key.path}.pub`);
    expect(added.status, added.stderr).toBe(0);
    const check = await cli("advisories", "check", "--json");
    expect(check.status).toBe(1);
    expect(
      JSON.parse(check.stdout).revoked.map((copy: { id: string; advisory: { id: string } }) => [
        copy.id,
        copy.advisory.id,
      ]),
    ).toEqual([["pdf", "SKS-2026-0001"]]);
    const sarif = JSON.parse((await cli("advisories", "check", "--sarif")).stdout);
    expect(sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toEqual([
      "SKS-2026-0001",
    ]);
    const verify = await cli("verify", "--json");
    expect(verify.status).toBe(1);
    expect(verify.stdout).toContain("advisory_revoked");

    // the model stops seeing it; nothing is deleted
    expect(await box.skills()).toEqual(["tidy"]);
    expect(existsSync(join(box.configDir, "packages", "pdf"))).toBe(true);
    await withStdioSkills(["--user", "--poll-ms", "0"], { cwd: box.cwd, env }, async (mcp) => {
      expect((await mcp.listAll()).skills.map((one) => one.uri)).toEqual(["skill://tidy/SKILL.md"]);
    });

    // installing the same tree again, anywhere this feed is followed, is refused
    const again = await cli(
      "install",
      repo,
      "--skill",
      "pdf",
      "--user",
      "--force",
      "--yes",
      "--json",
    );
    expect(again.status).toBe(1);
    expect(codesOf(again)).toContain("advisory_revoked");
  }, 120_000);

  it("revokes by source prefix from a feed in a git repository, for every copy from there", async () => {
    const box = changeSandbox();
    const repo = await installTwo(box);
    const feeds = bareClone(
      gitRepo([{ tree: { "advisories.json": feed({ sources: [repo] }) } }]).path,
    );
    const added = await box.runAsync("advisories", "add", feeds, "--name", "team");
    expect(added.status, added.stderr).toBe(0);
    const check = await box.runAsync("advisories", "check", "--json");
    expect(
      JSON.parse(check.stdout)
        .revoked.map((copy: { id: string }) => copy.id)
        .sort(),
    ).toEqual(["pdf", "tidy"]);
    const update = await box.runAsync("update", "--check", "--user", "--json");
    expect(update.status).toBe(1);
    expect(JSON.parse(update.stdout).revoked.map((one: { code: string }) => one.code)).toEqual([
      "advisory_revoked",
      "advisory_revoked",
    ]);
  }, 120_000);
});
