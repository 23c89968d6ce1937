import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  bareClone,
  gitRepo,
  pushPlainImage,
  skillFile,
  startOciRegistry,
  tarGz,
  testdir,
  testEnvironment,
  writeDockerAuth,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { makeKey } from "../test/_keys.js";
import { runCliAsync } from "../test/_run.js";
import { type ChangeSandbox, changeSandbox, codesOf, twoSkillsRepo } from "../test/_sandbox.js";

/** The signature ssh-keygen makes of `text` for Skillshelf (namespace `skillshelf`). */
function signature(text: string, key: { readonly path: string }): string {
  const file = join(testdir(), "org.yaml");
  writeFileSync(file, text);
  execFileSync("ssh-keygen", ["-q", "-Y", "sign", "-f", key.path, "-n", "skillshelf", file]);
  return readFileSync(`${file}.sig`, "utf8");
}

/** A skills repository of two skills; the sources a team's set names each by. */
function skillsRepo(): { readonly pdf: string; readonly tidy: string } {
  const repo = twoSkillsRepo();
  return { pdf: `${repo}//skills/pdf`, tidy: `${repo}//skills/tidy` };
}

/** The org file of these tests: a team, a policy layer, an advisory feed; `extra` lines appended. */
function orgYaml(skills: { pdf: string; tidy: string }, feed: string, extra = ""): string {
  return `version: 1
name: acme
ttl: 12h
${extra}policy:
  audit:
    max-severity: high
  block:
    skills: [evil]
advisories:
  - name: security
    source: ${feed}
teams:
  platform:
    stable: ["${skills.pdf}"]
    beta: ["${skills.pdf}", "${skills.tidy}"]
  support: ["${skills.tidy}"]
`;
}

/** A feed revoking nothing installed here. */
function emptyFeed(): string {
  const path = join(testdir(), "advisories.json");
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      advisories: [
        {
          id: "SKS-1",
          summary: "A bad skill elsewhere.",
          severity: "high",
          published: "2026-12-01T00:00:00Z",
          revoked: { sources: ["https://evil.example/"] },
        },
      ],
    }),
  );
  return path;
}

/** Set the kept org's fetch time `hours` back, as if that long had passed. */
function age(box: ChangeSandbox, hours: number): void {
  const path = join(box.configDir, "org", "org.json");
  const kept = JSON.parse(readFileSync(path, "utf8"));
  kept.fetchedAt = new Date(Date.now() - hours * 3_600_000).toISOString();
  writeFileSync(path, JSON.stringify(kept));
}

function json(run: { stdout: string }) {
  return JSON.parse(run.stdout);
}

describe("org channel (issue 59, item 3)", () => {
  it("joins a signed org from git: its policy, feeds and teams apply, verify sees drift, a teammate's restore checks the same org", async () => {
    const box = changeSandbox();
    const skills = skillsRepo();
    const key = makeKey("org@acme.example");
    // the org's index: a repository holding a library.yaml that lists one skill
    const evil = bareClone(
      gitRepo([{ tree: { "SKILL.md": skillFile("evil", "Looks helpful.") } }]).path,
    );
    const indexFile = join(testdir(), "library.yaml");
    expect(
      (await box.runAsync("register", `git+file://${evil}`, "--index", indexFile)).status,
    ).toBe(0);
    const index = bareClone(
      gitRepo([{ tree: { "library.yaml": readFileSync(indexFile, "utf8") } }]).path,
    );
    const text = orgYaml(skills, emptyFeed(), `sources: ["${index}"]\n`);
    const orgRepo = bareClone(
      gitRepo([{ tree: { "org.yaml": text, "org.yaml.sig": signature(text, key) } }]).path,
    );
    const unknownField = `${text}colour: blue\n`;
    const badRepo = bareClone(
      gitRepo([
        { tree: { "org.yaml": unknownField, "org.yaml.sig": signature(unknownField, key) } },
      ]).path,
    );

    // bad input: no pin, a signer that did not sign it, a field the format does not have
    expect((await box.runAsync("org", "join", orgRepo)).status).toBe(2);
    const other = makeKey("someone@else.example");
    const wrong = await box.runAsync("org", "join", orgRepo, "--signer", `${other.path}.pub`);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain("signature_invalid");
    const unknown = await box.runAsync("org", "join", badRepo, "--signer", `${key.path}.pub`);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("org_invalid");
    expect(existsSync(join(box.configDir, "org"))).toBe(false);
    // `validate` names the field
    const file = join(testdir(), "org.yaml");
    writeFileSync(file, unknownField);
    const validated = json(await box.runAsync("validate", file, "--json"));
    expect(validated.valid).toBe(false);
    expect(validated.results[0].kind).toBe("org");
    expect(validated.results[0].diagnostics[0]).toMatchObject({ code: "key_unknown", path: file });

    const joined = await box.runAsync("org", "join", orgRepo, "--signer", `${key.path}.pub`);
    expect(joined.status, joined.stderr).toBe(0);
    const status = json(await box.runAsync("org", "status", "--json"));
    expect(status.org).toMatchObject({
      name: "acme",
      source: orgRepo,
      teams: ["platform", "support"],
      expired: false,
    });
    // its policy is a layer at the managed file's strength; its feed is followed
    const policy = json(await box.runAsync("policy", "--json"));
    expect(policy.files.map((one: { level: string }) => one.level)).toEqual(["org"]);
    expect(
      json(await box.runAsync("advisories", "--json")).feeds.map(
        (one: { name: string }) => one.name,
      ),
    ).toEqual(["org-security"]);
    // a project cannot loosen it
    mkdirSync(join(box.cwd, ".skillshelf"), { recursive: true });
    writeFileSync(
      join(box.cwd, ".skillshelf", "policy.yaml"),
      "audit:\n  max-severity: critical\n",
    );
    expect(
      json(await box.runAsync("policy", "--json")).diagnostics.map(
        (one: { code: string }) => one.code,
      ),
    ).toEqual(["policy_loosening_ignored"]);

    // a team's set, its channel, and an unknown team
    const nobody = await box.runAsync(
      "install",
      "--team",
      "nobody",
      "--project",
      "--yes",
      "--json",
    );
    expect(nobody.status).toBe(1);
    expect(nobody.stdout + nobody.stderr).toContain("org_team_unknown");
    const team = await box.runAsync("install", "--team", "platform", "--project", "--yes");
    expect(team.status, team.stderr).toBe(0);
    const recorded = JSON.parse(readFileSync(join(box.cwd, ".skillshelf", "org.json"), "utf8"));
    expect(recorded).toMatchObject({
      org: "acme",
      source: orgRepo,
      team: "platform",
      channel: "stable",
    });
    expect((await box.runAsync("verify", "--json")).status).toBe(0);
    // drift: a member removes what the set lists
    expect((await box.runAsync("remove", "pdf", "--project", "--yes")).status).toBe(0);
    const drifted = await box.runAsync("verify", "--json");
    expect(drifted.status).toBe(1);
    expect(drifted.stdout).toContain("team_drift");
    const beta = await box.runAsync(
      "install",
      "--team",
      "platform",
      "--channel",
      "beta",
      "--project",
      "--yes",
    );
    expect(beta.status, beta.stderr).toBe(0);
    expect((await box.runAsync("verify", "--json")).status).toBe(0);
    // a profile of what a team's set installed here
    const profile = await box.runAsync(
      "profile",
      "create",
      "platform-beta",
      "--team",
      "platform",
      "--channel",
      "beta",
      "--json",
    );
    expect(profile.status, profile.stderr).toBe(0);
    expect(json(profile).profile.skills).toEqual(["pdf", "tidy"]);

    // a teammate's restore: refused until they join the same org, pinned the same
    const mate = testEnvironment();
    const mateEnv = { ...box.env, HOME: mate.home, SKILLSHELF_HOME: mate.configDir };
    // what a project commits: its lock, its org record, its policy
    for (const name of ["lock.json", "org.json", "policy.yaml"])
      cpSync(join(box.cwd, ".skillshelf", name), join(mate.cwd, ".skillshelf", name));
    const run = (...args: string[]) => runCliAsync(args, { cwd: mate.cwd, env: mateEnv });
    const refused = await run("install", "--project", "--yes", "--json");
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toContain("org_not_joined");
    expect(refused.stdout + refused.stderr).toContain(`skillshelf org join ${orgRepo} --signer`);
    expect(existsSync(join(mate.cwd, ".skillshelf", "packages", "pdf"))).toBe(false);
    expect((await run("org", "join", orgRepo, "--signer", key.publicKey)).status).toBe(0);
    const restored = await run("install", "--project", "--yes");
    expect(restored.status, restored.stderr).toBe(0);
    expect(existsSync(join(mate.cwd, ".skillshelf", "packages", "tidy"))).toBe(true);

    // the org's index is one of the user's sources; its policy refuses what it blocks
    const listed = json(await box.runAsync("sources", "list", "--user", "--json")).indexes;
    expect(listed.map((one: { kind: string; rows: number }) => [one.kind, one.rows])).toEqual([
      ["remote", 1],
    ]);
    const blocked = await box.runAsync("install", "evil", "--user", "--yes", "--json");
    expect(blocked.status).toBe(1);
    const refusal = json(blocked).plan.steps[0].refusal;
    expect(refusal).toMatchObject({
      code: "policy_refused",
      details: { rule: "block.skills", file: join(box.configDir, "org", "org.json") },
    });

    // leaving takes back what it set
    const left = await box.runAsync("org", "leave");
    expect(left.status).toBe(0);
    expect(json(await box.runAsync("advisories", "--json")).feeds).toEqual([]);
    expect(json(await box.runAsync("sources", "list", "--user", "--json")).indexes).toEqual([]);
    expect(json(await box.runAsync("policy", "--json")).files).toHaveLength(1);
  }, 180_000);

  it("a ttl past: fetched again before a change; unreachable, fail-closed decides", async () => {
    const box = changeSandbox();
    const skills = skillsRepo();
    const folder = testdir();
    const publish = (text: string) => {
      writeFileSync(join(folder, "org.yaml"), text);
      return `sha256:${createHash("sha256").update(text).digest("hex")}`;
    };
    const open = orgYaml(skills, emptyFeed());
    const joined = await box.runAsync("org", "join", folder, "--digest", publish(open));
    expect(joined.status, joined.stderr).toBe(0);
    // pinned to a digest: another file is refused
    publish(`${open}# changed\n`);
    const changed = await box.runAsync("org", "sync");
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain("org_digest_mismatch");
    publish(open);

    // past its ttl and reachable: fetched again, the change goes ahead
    age(box, 13);
    const refreshed = await box.runAsync("install", skills.pdf, "--user", "--yes");
    expect(refreshed.status, refreshed.stderr).toBe(0);
    expect(json(await box.runAsync("org", "status", "--json")).org.expired).toBe(false);

    // past its ttl and unreachable, failing open: the last copy holds, with a warning
    age(box, 13);
    renameSync(folder, `${folder}-away`);
    const stale = await box.runAsync("install", skills.tidy, "--user", "--yes", "--json");
    expect(stale.status, stale.stderr).toBe(0);
    expect(codesOf(stale)).toContain("org_stale");
    renameSync(`${folder}-away`, folder);

    // failing closed: every change refused until the org is reached again
    expect((await box.runAsync("org", "leave")).status).toBe(0);
    const closed = `${open}fail-closed: true\n`;
    expect((await box.runAsync("org", "join", folder, "--digest", publish(closed))).status).toBe(0);
    age(box, 13);
    renameSync(folder, `${folder}-away`);
    const refused = await box.runAsync("remove", "tidy", "--user", "--yes", "--json");
    expect(refused.status).toBe(1);
    expect(codesOf(refused)).toContain("org_expired");
    expect(existsSync(join(box.configDir, "packages", "tidy"))).toBe(true);
    renameSync(`${folder}-away`, folder);
    const reached = await box.runAsync("remove", "tidy", "--user", "--yes", "--json");
    expect(reached.status, reached.stdout).toBe(0);
  }, 180_000);

  it("joins an org published as an OCI artifact, signed; its mirrors apply", async () => {
    const registry = await startOciRegistry({ tls: false });
    try {
      const box = changeSandbox();
      writeDockerAuth(box.home, registry);
      const key = makeKey("org@acme.example");
      const text = `version: 1
name: acme
mirrors:
  - from: https://github.com/
    to: https://git.acme.internal/github/
mirror-only: true
`;
      const source = await pushPlainImage(
        registry,
        tarGz([
          { path: "org.yaml", content: text },
          { path: "org.yaml.sig", content: signature(text, key) },
        ]),
        "acme/org",
        "v1",
      );
      const joined = await box.runAsync("org", "join", source, "--signer", `${key.path}.pub`);
      expect(joined.status, joined.stderr).toBe(0);
      const policy = json(await box.runAsync("policy", "--json"));
      expect(policy.rules.map((row: { rule: string }) => row.rule)).toEqual([
        "mirrors",
        "mirror-only",
      ]);
      // mirror-only from the org: a source no rule rewrites is refused before any fetch
      const refused = await box.runAsync(
        "install",
        "https://gitlab.com/acme/skills.git",
        "--user",
        "--yes",
        "--json",
      );
      expect(refused.status).toBe(1);
      expect(refused.stdout + refused.stderr).toContain("mirror_required");
      expect((await box.runAsync("org", "sync")).status).toBe(0);
    } finally {
      await registry.close();
    }
  }, 180_000);
});
