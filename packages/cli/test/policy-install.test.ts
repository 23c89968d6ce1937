import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type ChangeSandbox, changeSandbox, codesOf } from "./_sandbox.js";

// Issue 28, item 4: a policy at three levels, enforced when a plan is made, each refusal naming
// the rule and the file; a policy that does not read refuses every change.

interface Refused {
  readonly plan: {
    readonly steps: {
      ref: string;
      refusal?: { code: string; details?: { rule?: string; file?: string }; alone?: boolean };
    }[];
  };
}

function writePolicy(box: ChangeSandbox, level: "user" | "project", text: string): string {
  const path =
    level === "user"
      ? join(box.configDir, "policy.yaml")
      : join(box.cwd, ".skillshelf", "policy.yaml");
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const skillFolder = (name: string, frontmatter = ""): string =>
  join(testdir({ [`${name}/SKILL.md`]: skillFile(name, `Use for ${name}.`, frontmatter) }), name);

const refusals = (stdout: string) =>
  (JSON.parse(stdout) as Refused).plan.steps
    .filter((step) => step.refusal !== undefined)
    .map((step) => [
      step.ref,
      step.refusal?.code,
      step.refusal?.details?.rule,
      step.refusal?.details?.file,
    ]);

describe("a policy enforced when a plan is made", () => {
  it("refuses a source the user's policy does not allow, naming the rule and the file", async () => {
    const box = changeSandbox();
    const file = writePolicy(box, "user", "sources:\n  allow: [kind:git]\n");
    const run = await box.run("install", skillFolder("tidy"), "--user", "--yes", "--json");
    expect(run.status).toBe(1);
    expect(refusals(run.stdout)).toEqual([["skill:tidy", "policy_refused", "sources.allow", file]]);
    expect(existsSync(join(box.configDir, "packages", "tidy"))).toBe(false);
  });

  it("lets a project tighten the user's policy but never loosen it", async () => {
    const box = changeSandbox();
    const user = writePolicy(box, "user", "audit:\n  max-severity: low\n");
    writePolicy(box, "project", "audit:\n  max-severity: critical\n");
    // a bare Bash grant is a medium finding: above the user's low, whatever the project says
    const source = skillFolder("shell", "allowed-tools: Bash\n");
    const run = await box.run("install", source, "--user", "--yes", "--json");
    expect(run.status).toBe(1);
    expect(refusals(run.stdout)).toEqual([
      ["skill:shell", "policy_refused", "audit.max-severity", user],
    ]);
    expect(codesOf(run)).toContain("policy_loosening_ignored");
    // an approval does not lift a policy's refusal
    const approving = ["--approve", "broad-allowed-tools"];
    const approved = await box.run("install", source, "--user", "--yes", "--json", ...approving);
    expect(refusals(approved.stdout)[0]?.[1]).toBe("policy_refused");
  });

  it("refuses a blocked skill of a collection alone, and tools wider than allowed", async () => {
    const box = changeSandbox();
    const file = writePolicy(
      box,
      "project",
      "block:\n  skills: [wallet-helper]\nallowed-tools:\n  widest: [Read, 'Bash(git:*)']\n",
    );
    const dir = testdir({
      "skills/wallet-helper/SKILL.md": skillFile("wallet-helper", "Use for wallets."),
      "skills/git-log/SKILL.md": skillFile(
        "git-log",
        "Use for logs.",
        "allowed-tools: Bash(git log:*)\n",
      ),
      "skills/wipe/SKILL.md": skillFile("wipe", "Use for wiping.", "allowed-tools: Bash(rm:*)\n"),
    });
    const run = await box.run("install", dir, "--project", "--yes", "--json", "--skill", "*");
    expect(run.status).toBe(1);
    expect(refusals(run.stdout).sort()).toEqual([
      ["skill:wallet-helper", "policy_refused", "block.skills", file],
      ["skill:wipe", "policy_refused", "allowed-tools.widest", file],
    ]);
    expect(existsSync(join(box.cwd, ".skillshelf", "packages", "git-log"))).toBe(true);
  });

  it("requires pinned refs: a branch is refused, a commit installs", async () => {
    const box = changeSandbox();
    const file = writePolicy(box, "user", "pins:\n  required: true\n");
    const repo = gitRepo([{ tree: { "SKILL.md": skillFile("pinned", "Use for pins.") } }]);
    const url = `file://${repo.path}`;
    const floating = await box.run("install", `${url}#main`, "--user", "--yes", "--json");
    expect(refusals(floating.stdout)).toEqual([
      ["skill:pinned", "policy_refused", "pins.required", file],
    ]);
    const pinned = await box.run("install", `${url}#${repo.commits[0]}`, "--user", "--yes");
    expect(pinned.status, pinned.stderr).toBe(0);
  });

  it("refuses every change while a policy file does not parse, and says so in `policy`", async () => {
    const box = changeSandbox();
    expect((await box.run("install", skillFolder("tidy"), "--user", "--yes")).status).toBe(0);
    const file = writePolicy(box, "project", "sources: [\n");
    const install = await box.run("install", skillFolder("other"), "--user", "--yes", "--json");
    expect(codesOf(install)).toContain("policy_invalid");
    const remove = await box.run("remove", "tidy", "--user", "--yes", "--json");
    expect(remove.status).toBe(1);
    expect(codesOf(remove)).toContain("policy_invalid");
    expect(existsSync(join(box.configDir, "packages", "tidy"))).toBe(true);
    const shown = await box.run("policy", "--json");
    expect(shown.status).toBe(1);
    expect(
      JSON.parse(shown.stdout).diagnostics.map((one: { code: string; path: string }) => [
        one.code,
        one.path,
      ]),
    ).toEqual([["policy_invalid", file]]);
  });

  it("refuses every change while policy.yaml is a link to nothing, as a broken one (issue 51, item 4)", async () => {
    const box = changeSandbox();
    expect((await box.run("install", skillFolder("tidy"), "--user", "--yes")).status).toBe(0);
    const file = join(box.configDir, "policy.yaml");
    symlinkSync(join(box.configDir, "gone", "policy.yaml"), file);
    const remove = await box.run("remove", "tidy", "--user", "--yes", "--json");
    expect(remove.status).toBe(1);
    expect(codesOf(remove)).toContain("policy_invalid");
    expect(existsSync(join(box.configDir, "packages", "tidy"))).toBe(true);
    const shown = await box.run("policy", "--json");
    expect(JSON.parse(shown.stdout).diagnostics).toMatchObject([
      { code: "policy_invalid", path: file },
    ]);
  });

  it("shows the policy in force with the file each rule came from", async () => {
    const box = changeSandbox();
    const user = writePolicy(box, "user", "pins:\n  required: true\nblock:\n  packages: [evil]\n");
    const project = writePolicy(box, "project", "sources:\n  allow: [github.com/acme/*]\n");
    const shown = await box.run("policy", "--json");
    expect(shown.status).toBe(0);
    const rules = (JSON.parse(shown.stdout) as { rules: { rule: string; file: string }[] }).rules;
    expect(rules.map((one) => [one.rule, one.file])).toEqual([
      ["sources.allow", project],
      ["block.packages", user],
      ["pins.required", user],
    ]);
    expect((await box.run("policy")).stdout).toContain("pins.required: true");
  });
});
