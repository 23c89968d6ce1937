import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Environment, sshKeyFingerprint } from "@skillshelf/core";
import { testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import {
  advisoryFor,
  mirrorRules,
  parseAdvisoryFeed,
  policyThreshold,
  policyViolations,
  readPolicy,
  type SourceFacts,
  sourceMatches,
} from "../src/index.js";

/** An environment whose three policy files (managed, user, project) hold the given text. */
function withPolicies(files: {
  readonly system?: string;
  readonly user?: string;
  readonly project?: string;
}): { environment: Environment; paths: Record<"system" | "user" | "project", string> } {
  const { home, cwd, configDir } = testEnvironment();
  const paths = {
    system: join(home, "etc", "policy.yaml"),
    user: join(configDir, "policy.yaml"),
    project: join(cwd, ".skillshelf", "policy.yaml"),
  };
  for (const level of ["system", "user", "project"] as const) {
    const text = files[level];
    if (text === undefined) continue;
    mkdirSync(dirname(paths[level]), { recursive: true });
    writeFileSync(paths[level], text);
  }
  const environment: Environment = {
    cwd,
    project: cwd,
    home,
    configDir,
    env: { SKILLSHELF_SYSTEM_POLICY: paths.system },
  };
  return { environment, paths };
}

/** A source as its fetcher describes it to a policy (`sources`' place and pinned). */
const source = (type: SourceFacts["type"], place: string, pinned = false): SourceFacts => ({
  type,
  place,
  pinned,
});

describe("policy files, each only tightening the one above", () => {
  it("keeps the stricter rule and names the file a looser one was ignored in", () => {
    const { environment, paths } = withPolicies({
      system: "signatures:\n  required: true\n",
      user: "audit:\n  max-severity: low\npins:\n  required: true\n",
      project:
        "audit:\n  max-severity: critical\nsignatures:\n  required: false\npins:\n  required: false\n",
    });
    const policy = readPolicy(environment);
    expect(policy.invalid).toBeUndefined();
    expect(policy.maxSeverity).toEqual({ value: "low", file: paths.user });
    expect(policy.signaturesRequired?.file).toBe(paths.system);
    expect(policy.pinsRequired?.file).toBe(paths.user);
    expect(policy.diagnostics.map((one) => [one.code, one.path, one.details?.rule])).toEqual([
      ["policy_loosening_ignored", paths.project, "audit.max-severity"],
      ["policy_loosening_ignored", paths.project, "signatures.required"],
      ["policy_loosening_ignored", paths.project, "pins.required"],
    ]);
    expect(policyThreshold(policy)).toBe("medium");
  });

  it("allows a source only when every file's list allows it", () => {
    const { environment, paths } = withPolicies({
      user: "sources:\n  allow: [github.com/acme/*, kind:local]\n",
      project: "sources:\n  allow: [github.com/acme/tools, github.com/evil/*]\n",
    });
    const policy = readPolicy(environment);
    const judge = (facts: SourceFacts) =>
      policyViolations(policy, { id: "x", source: facts, skills: [] }).map((one) => [
        one.rule,
        one.file,
      ]);
    expect(judge(source("git", "github.com/acme/tools"))).toEqual([]);
    expect(judge(source("git", "github.com/evil/tools"))).toEqual([["sources.allow", paths.user]]);
    expect(judge(source("git", "github.com/acme/other"))).toEqual([
      ["sources.allow", paths.project],
    ]);
    expect(judge(source("local", "local:/tmp/x", true))).toEqual([
      ["sources.allow", paths.project],
    ]);
  });

  it("blocks packages and skills, tools wider than allowed, findings above the maximum, floating refs", () => {
    const { environment, paths } = withPolicies({
      user: [
        "block:\n  packages: [evil]\n  skills: [wallet-helper]",
        "allowed-tools:\n  widest: [Read, 'Bash(git:*)']",
        "audit:\n  max-severity: medium",
        "pins:\n  required: true",
        "",
      ].join("\n"),
    });
    const policy = readPolicy(environment);
    const rules = (facts: Parameters<typeof policyViolations>[1]) =>
      policyViolations(policy, facts).map((one) => `${one.rule}@${one.file === paths.user}`);
    const pinned = source("git", "example.invalid/r", true);
    expect(rules({ id: "evil", source: pinned, skills: [] })).toEqual(["block.packages@true"]);
    expect(rules({ id: "ok", source: pinned, skills: [{ name: "wallet-helper" }] })).toEqual([
      "block.skills@true",
    ]);
    expect(
      rules({
        id: "ok",
        source: pinned,
        skills: [{ name: "s", allowedTools: ["Read", "Bash(git status:*)", "Bash(rm:*)"] }],
      }),
    ).toEqual(["allowed-tools.widest@true"]);
    expect(rules({ id: "ok", source: pinned, skills: [], highest: "high" })).toEqual([
      "audit.max-severity@true",
    ]);
    expect(rules({ id: "ok", source: pinned, skills: [], highest: "medium" })).toEqual([]);
    expect(rules({ id: "ok", source: source("git", "example.invalid/r"), skills: [] })).toEqual([
      "pins.required@true",
    ]);
    expect(rules({ id: "ok", source: source("npm", "npm:@a/b", true), skills: [] })).toEqual([]);
    expect(rules({ id: "ok", source: source("npm", "npm:@a/b"), skills: [] })).toEqual([
      "pins.required@true",
    ]);
  });

  it("requires signatures by the keys every file names", () => {
    const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKey1 ci@acme";
    const { environment } = withPolicies({
      user: `signatures:\n  required: true\n  keys: ['${key}']\n`,
    });
    const policy = readPolicy(environment);
    const local = source("local", "local:/x", true);
    const codes = (signature: Parameters<typeof policyViolations>[1]["signature"]) =>
      policyViolations(policy, { id: "p", source: local, skills: [], signature }).map(
        (one) => one.code,
      );
    expect(codes(undefined)).toEqual(["signature_missing"]);
    expect(codes({ invalid: "bad" })).toEqual(["signature_invalid"]);
    const fingerprint = (line: string) => `ssh:${sshKeyFingerprint(line)}`;
    expect(codes({ fingerprint: fingerprint(`${key} other-comment`) })).toEqual([]);
    expect(
      codes({ fingerprint: fingerprint("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOther") }),
    ).toEqual(["signature_invalid"]);
  });

  it("matches sources by kind, npm scope, host, owner and repository", () => {
    expect(sourceMatches("kind:npm", source("npm", "npm:x"))).toBe(true);
    expect(sourceMatches("npm:@acme/*", source("npm", "npm:@acme/skills"))).toBe(true);
    expect(sourceMatches("npm:@acme/*", source("npm", "npm:@other/skills"))).toBe(false);
    expect(sourceMatches("github.com", source("git", "github.com/a/b"))).toBe(true);
    expect(sourceMatches("github.com", source("git", "github.com.evil.invalid/a/b"))).toBe(false);
    expect(sourceMatches("ghcr.io/acme/*", source("oci", "ghcr.io/acme/skills"))).toBe(true);
  });
});

describe("the README's company policy", () => {
  it("reads as it is written, with every rule it shows", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");
    const example = /A company's might say:\n\n```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const { environment, paths } = withPolicies({ system: example as string });
    const policy = readPolicy(environment);
    expect(policy.invalid).toBeUndefined();
    expect(policy.maxSeverity).toEqual({ value: "low", file: paths.system });
    expect(policy.pinsRequired?.file).toBe(paths.system);
    expect(policy.signatureKeys).toHaveLength(1);
    expect(policy.allowedSources[0]?.value).toContain("npm:@acme/*");
  });
});

describe("a policy file that does not read (bad input)", () => {
  it("is invalid with its path: not YAML, an unknown key, a wrong value", () => {
    for (const text of ["sources: [", "allow: []\n", "audit:\n  max-severity: fatal\n"]) {
      const { environment, paths } = withPolicies({ project: text });
      const policy = readPolicy(environment);
      expect([policy.invalid?.code, policy.invalid?.path]).toEqual([
        "policy_invalid",
        paths.project,
      ]);
    }
  });
});

describe("mirrors in the policy (issue 59, item 1)", () => {
  it("puts the strictest file's rules first, keeps mirror-only once set, and refuses a rule that is no URL prefix", () => {
    const { environment, paths } = withPolicies({
      system:
        "mirrors:\n  - from: https://github.com/\n    to: https://git.corp.example/github/\nmirror-only: true\n",
      project:
        'mirrors:\n  - from: https://github.com/\n    to: https://elsewhere.example/\n  - from: "git@github.com:"\n    to: "git@git.corp.example:github/"\nmirror-only: false\n',
    });
    const policy = readPolicy(environment);
    expect(mirrorRules(policy)).toEqual({
      rules: [
        { from: "https://github.com/", to: "https://git.corp.example/github/", file: paths.system },
        { from: "https://github.com/", to: "https://elsewhere.example/", file: paths.project },
        { from: "git@github.com:", to: "git@git.corp.example:github/", file: paths.project },
      ],
      only: { file: paths.system },
    });
    expect(policy.diagnostics.map((one) => [one.code, one.details?.rule])).toEqual([
      ["policy_loosening_ignored", "mirror-only"],
    ]);
    const bad = withPolicies({ user: "mirrors:\n  - from: github.com\n    to: https://x/\n" });
    expect(readPolicy(bad.environment).invalid?.code).toBe("policy_invalid");
  });
});

describe("advisory feeds (issue 59, item 4)", () => {
  it("refuses a feed that is not one, and matches a digest with or without sha256: and a source prefix at a boundary", () => {
    expect(parseAdvisoryFeed("not json")).toMatchObject({ ok: false });
    expect(parseAdvisoryFeed('{"version":2,"advisories":[]}')).toMatchObject({ ok: false });
    const advisory = {
      id: "A-1",
      summary: "Bad.",
      severity: "high",
      published: "2026-12-01T00:00:00Z",
      revoked: { digests: [`sha256:${"a".repeat(64)}`], sources: ["https://github.com/evil"] },
    };
    expect(
      parseAdvisoryFeed(
        JSON.stringify({ version: 1, advisories: [{ ...advisory, severity: "dire" }] }),
      ),
    ).toMatchObject({ ok: false });
    const parsed = parseAdvisoryFeed(JSON.stringify({ version: 1, advisories: [advisory] }));
    if (!parsed.ok) throw new Error(parsed.problem);
    const feeds = [{ name: "f", source: "x", fetchedAt: "t", feed: parsed.feed }];
    const git = (url: string) => ({ type: "git", url }) as const;
    expect(
      advisoryFor(feeds, { digest: "a".repeat(64), source: git("https://x/y.git") })?.advisory.id,
    ).toBe("A-1");
    expect(
      advisoryFor(feeds, { digest: "b".repeat(64), source: git("https://github.com/evil/x.git") })
        ?.feed,
    ).toBe("f");
    expect(
      advisoryFor(feeds, {
        digest: "b".repeat(64),
        source: git("https://github.com/evildoer/x.git"),
      }),
    ).toBeUndefined();
  });
});
