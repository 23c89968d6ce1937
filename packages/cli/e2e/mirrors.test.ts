import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  bareClone,
  gitRepo,
  type NpmRegistry,
  type OciRegistry,
  skillFile,
  startNpmRegistry,
  startOciRegistry,
  testdir,
  writeDockerAuth,
} from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChangeSandbox, changeSandbox, codesOf } from "../test/_sandbox.js";

/** The user's policy.yaml of `box`, as written. */
function writeUserPolicy(box: ChangeSandbox, text: string): void {
  mkdirSync(box.configDir, { recursive: true });
  writeFileSync(join(box.configDir, "policy.yaml"), text);
}

/** A lock entry as these tests read it. */
type Entry = { source: { url?: string; name?: string }; mirror?: string; commit?: string };

let oci: OciRegistry;
let npm: NpmRegistry;

beforeAll(async () => {
  [oci, npm] = await Promise.all([startOciRegistry({ tls: false }), startNpmRegistry()]);
  await npm.publish(
    testdir({
      "package.json": JSON.stringify({ name: "team-skills", version: "1.0.0" }),
      "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([oci?.close(), npm?.close()]);
});

describe("mirrors: every fetch through an internal mirror (issue 59, item 1)", () => {
  it("fetches a git repository from its mirror, locks the upstream with the mirror beside it, and restores outside it", async () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: { "SKILL.md": skillFile("tidy", "Tidy a folder.") } }]);
    // the upstream is a host this machine does not reach; the mirror holds the same repository
    const mirrorRoot = testdir();
    mkdirSync(join(mirrorRoot, "acme"));
    renameSync(bareClone(repo.path), join(mirrorRoot, "acme", "tidy.git"));
    const upstream = "https://git.upstream.invalid/acme/tidy.git";
    const mirror = `${pathToFileURL(mirrorRoot).href}/`;
    writeUserPolicy(
      box,
      `mirrors:\n  - from: https://git.upstream.invalid/\n    to: ${mirror}\nmirror-only: true\n`,
    );
    const installed = await box.runAsync("install", upstream, "--user", "--yes", "--json");
    expect(installed.status, installed.stdout).toBe(0);
    const entry = box.userLock().tidy as unknown as Entry;
    expect(entry.source.url).toBe(upstream);
    expect(entry.mirror).toBe(mirror);
    expect(entry.commit).toBe(repo.commits[0]);
    expect((await box.runAsync("update", "--check", "--user")).status).toBe(0);

    // mirror-only: a host no rule covers is refused, at install and at update --check alike
    const elsewhere = await box.runAsync(
      "install",
      "https://git.other.invalid/acme/tidy.git",
      "--user",
      "--yes",
      "--json",
    );
    expect(elsewhere.status).toBe(1);
    expect(codesOf(elsewhere)).toContain("mirror_required");
    writeUserPolicy(box, "mirror-only: true\n");
    const check = await box.runAsync("update", "--check", "--user", "--json");
    expect(check.status).toBe(1);
    expect(check.stdout).toContain("mirror_required");

    // outside the mirror, the lock names the upstream: here the upstream is the repository itself
    const copy = box.userLock();
    writeUserPolicy(
      box,
      `mirrors:\n  - from: https://git.upstream.invalid/acme/tidy.git\n    to: ${pathToFileURL(repo.path).href}\n`,
    );
    rmSync(join(box.configDir, "packages"), { recursive: true, force: true });
    const restored = await box.runAsync("install", "--user", "--yes", "--json");
    expect(restored.status, restored.stdout).toBe(0);
    const again = box.userLock().tidy as unknown as Entry;
    expect(again.source).toEqual(copy.tidy?.source);
    // which mirror served it is recorded as it was this time
    expect(again.mirror).toBe(pathToFileURL(repo.path).href);
    expect((await box.runAsync("verify", "--json")).status).toBe(0);
  }, 120_000);

  it("fetches an OCI artifact from a mirror registry with the mirror's own credentials", async () => {
    const box = changeSandbox();
    writeDockerAuth(box.home, oci);
    const from = testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    const pushed = await box.runAsync("publish", join(from, "pdf"), `${oci.base}/team:1.0`);
    expect(pushed.status, pushed.stderr).toBe(0);
    // the artifact is only on the mirror: the upstream registry's name resolves nowhere
    writeUserPolicy(
      box,
      `mirrors:\n  - from: https://registry.upstream.invalid/\n    to: http://${oci.host}/\nmirror-only: true\n`,
    );
    const installed = await box.runAsync(
      "install",
      "oci://registry.upstream.invalid/team/pdf:1.0",
      "--user",
      "--yes",
      "--json",
    );
    expect(installed.status, installed.stdout).toBe(0);
    const entry = box.userLock().pdf as unknown as Entry;
    expect(entry.source.url).toBe("oci://registry.upstream.invalid/team/pdf");
    expect(entry.mirror).toBe(`http://${oci.host}/`);
    expect((await box.runAsync("update", "--check", "--user")).status).toBe(0);
  }, 120_000);

  it("fetches an npm package from a mirror registry, its tarball too, with the mirror's token", async () => {
    const box = changeSandbox();
    writeFileSync(join(box.home, ".npmrc"), `${npm.authLine}\n`);
    writeUserPolicy(
      box,
      `mirrors:\n  - from: https://registry.npmjs.org/\n    to: ${npm.url}\nmirror-only: true\n`,
    );
    const installed = await box.runAsync(
      "install",
      "npm:team-skills@^1.0.0",
      "--skill",
      "*",
      "--user",
      "--yes",
      "--json",
    );
    expect(installed.status, installed.stdout).toBe(0);
    const entry = box.userLock().pdf as unknown as Entry;
    expect(entry.source.name).toBe("team-skills");
    expect(entry.mirror).toBe(npm.url);
  }, 120_000);
});
