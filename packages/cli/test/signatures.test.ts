import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { folderRoutes, gitRepo, serve, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { fingerprintOf, makeKey, requireSignatures } from "./_keys.js";
import { type ChangeSandbox, changeSandbox, codesOf } from "./_sandbox.js";

// Issue 28, item 5: publish --sign makes detached SSH signatures that ssh-keygen verifies; an
// install verifies them, records the signer in the lock, and a policy requiring signatures
// refuses unsigned or wrongly signed packages.

/** Publish one skill to a new site folder (signed with `key` when given) and serve it on loopback. */
async function publishedSite(
  box: ChangeSandbox,
  key?: { readonly path: string },
): Promise<{
  readonly site: string;
  readonly url: string;
  readonly routes: Record<string, Buffer>;
}> {
  const skill = join(testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") }), "pdf");
  const site = testdir();
  const args = [
    "publish",
    skill,
    `site:${site}`,
    ...(key === undefined ? [] : ["--sign", key.path]),
  ];
  const published = await box.run(...args);
  expect(published.status, published.stderr).toBe(0);
  const routes = folderRoutes(site);
  return { site, url: await serve(routes), routes };
}

describe("signed skills, from publish to install", () => {
  it("signs each artifact so that ssh-keygen -Y verify accepts it", async () => {
    const box = changeSandbox();
    const key = makeKey("publisher@example.invalid");
    const { site } = await publishedSite(box, key);
    const folder = join(site, ".well-known", "agent-skills");
    const entry = JSON.parse(readFileSync(join(folder, "index.json"), "utf8")).skills[0];
    expect(entry.signature).toBe("pdf/SKILL.md.sig");
    const signers = join(testdir(), "allowed_signers");
    writeFileSync(signers, `publisher@example.invalid ${key.publicKey}\n`);
    const verified = execFileSync(
      "ssh-keygen",
      [
        "-Y",
        "verify",
        "-f",
        signers,
        "-I",
        "publisher@example.invalid",
        "-n",
        "skillshelf",
        "-s",
        join(folder, "pdf", "SKILL.md.sig"),
      ],
      { input: readFileSync(join(folder, "pdf", "SKILL.md")), encoding: "utf8" },
    );
    expect(verified).toContain("Good");
  });

  it("verifies on install, records the signer in the lock, and satisfies a policy naming the key", async () => {
    const box = changeSandbox();
    const key = makeKey("publisher");
    requireSignatures(box, [key.publicKey]);
    const { url } = await publishedSite(box, key);
    const run = await box.run("install", url, "--skill", "pdf", "--user", "--yes");
    expect(run.status, run.stderr).toBe(0);
    const locked = box.userLock().pdf as { signer?: string };
    expect(locked.signer).toBe(`ssh:${fingerprintOf(key)}`);
  });

  it("refuses under the policy what is unsigned, or signed by a key it does not name", async () => {
    const box = changeSandbox();
    const key = makeKey("publisher");
    const other = makeKey("someone-else");
    requireSignatures(box, [other.publicKey]);
    const signed = await publishedSite(box, key);
    const wrongKey = await box.run(
      "install",
      signed.url,
      "--skill",
      "pdf",
      "--user",
      "--yes",
      "--json",
    );
    expect(wrongKey.status).toBe(1);
    expect(codesOf(wrongKey)).toContain("signature_invalid");
    const unsigned = await publishedSite(box);
    const missing = await box.run(
      "install",
      unsigned.url,
      "--skill",
      "pdf",
      "--user",
      "--yes",
      "--json",
    );
    expect(codesOf(missing)).toContain("signature_missing");
    expect(existsSync(join(box.configDir, "packages", "pdf"))).toBe(false);
  });

  it("refuses a garbage signature even with no policy (bad input), writing nothing", async () => {
    const box = changeSandbox();
    const key = makeKey("publisher");
    const { routes, url } = await publishedSite(box, key);
    routes["/.well-known/agent-skills/pdf/SKILL.md.sig"] = Buffer.from(
      "-----BEGIN SSH SIGNATURE-----\nbm90IGEgc2lnbmF0dXJl\n-----END SSH SIGNATURE-----\n",
    );
    const run = await box.run("install", url, "--skill", "pdf", "--user", "--yes", "--json");
    expect(run.status).toBe(1);
    expect(codesOf(run)).toContain("signature_invalid");
    expect(run.stdout).not.toContain("internal error");
    expect(existsSync(join(box.configDir, "packages", "pdf"))).toBe(false);
  });

  it("refuses a restore whose source is no longer signed by the key the lock records", async () => {
    const box = changeSandbox();
    const key = makeKey("publisher");
    const { url, routes, site } = await publishedSite(box, key);
    expect((await box.run("install", url, "--skill", "pdf", "--user", "--yes")).status).toBe(0);
    // the same bytes served again with the signature taken away
    const index = join(site, ".well-known", "agent-skills", "index.json");
    const unsigned = JSON.parse(readFileSync(index, "utf8"));
    delete unsigned.skills[0].signature;
    routes["/.well-known/agent-skills/index.json"] = Buffer.from(JSON.stringify(unsigned));
    const lock = readFileSync(join(box.configDir, "lock.json"), "utf8");
    const fresh = changeSandbox();
    mkdirSync(fresh.configDir, { recursive: true });
    writeFileSync(join(fresh.configDir, "lock.json"), lock);
    const restored = await fresh.run("install", "--user", "--yes", "--json");
    expect(restored.status).toBe(1);
    expect(codesOf(restored)).toContain("signature_missing");
  });

  it("signs the commit it publishes to a git repository, as git does; git verify-commit agrees and the install records the signer", async () => {
    const box = changeSandbox();
    const key = makeKey("publisher");
    const remote = gitRepo([{ tree: { "README.md": "skills\n" } }]).path;
    execFileSync("git", ["-C", remote, "config", "receive.denyCurrentBranch", "ignore"]);
    const skill = join(testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") }), "pdf");
    const url = pathToFileURL(remote).href;
    const published = await box.run("publish", skill, `git+${url}`, "--sign", key.path);
    expect(published.status, published.stderr).toBe(0);
    const signers = join(testdir(), "allowed_signers");
    writeFileSync(signers, `publisher ${key.publicKey}\n`);
    const verified = execFileSync(
      "git",
      ["-C", remote, "-c", `gpg.ssh.allowedSignersFile=${signers}`, "verify-commit", "pdf@0.0.0"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: box.env },
    );
    expect(verified).toBe("");
    requireSignatures(box, [key.publicKey]);
    const installed = await box.run(
      "install",
      `${url}#pdf@0.0.0`,
      "--skill",
      "pdf",
      "--user",
      "--yes",
    );
    expect(installed.status, installed.stderr).toBe(0);
    expect((box.userLock().pdf as { signer?: string }).signer).toBe(`ssh:${fingerprintOf(key)}`);
  });
});
