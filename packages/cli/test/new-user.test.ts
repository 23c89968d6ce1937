import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, packageTree, skillFile } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import type { CliRun } from "./_run.js";
import { changeSandbox } from "./_sandbox.js";

// Issue 23: what a new user hit, each reproduced through the built bin.

/** The first refusal of a change command's JSON output. */
function refusalOf(run: CliRun): { code: string; details?: Record<string, unknown> } | undefined {
  const result = JSON.parse(run.stdout) as {
    plan: { steps: { refusal?: { code: string; details?: Record<string, unknown> } }[] };
  };
  return result.plan.steps.find((step) => step.refusal !== undefined)?.refusal;
}

/** A Claude Code plugin repository with two skills, as obra/superpowers is laid out. */
function pluginRepo(): string {
  return gitRepo([
    {
      tree: {
        ".claude-plugin/plugin.json": JSON.stringify({
          name: "powers",
          version: "1.0.0",
          description: "Skills for a coding agent.",
        }),
        "skills/brainstorming/SKILL.md": skillFile("brainstorming", "Turn ideas into designs."),
        "skills/debugging/SKILL.md": skillFile("debugging", "Find the cause of a bug."),
      },
    },
  ]).path;
}

describe("--skill on a repository that is one package (item 3)", () => {
  it("is refused with the skills it offers and a did-you-mean, and a skill's folder installs alone", () => {
    const box = changeSandbox();
    const repo = pluginRepo();
    const picked = box.run(
      "install",
      `${repo}#main`,
      "--skill",
      "brainstorming",
      "--user",
      "--yes",
      "--json",
    );
    expect(picked.status).toBe(1);
    const refusal = refusalOf(picked);
    expect(refusal?.code).toBe("package_not_collection");
    const offered = (refusal?.details?.skills ?? []) as { name: string }[];
    expect(offered.map((skill) => skill.name)).toEqual(["brainstorming", "debugging"]);
    expect(refusal?.details?.folder).toBe("skills/brainstorming");
    const typo = box.run(
      "install",
      `${repo}#main`,
      "--skill",
      "brainstorm",
      "--user",
      "--yes",
      "--json",
    );
    expect(refusalOf(typo)?.details?.unknown).toEqual([
      { name: "brainstorm", suggestion: "brainstorming" },
    ]);
    // in text too: the real reason and the did-you-mean, not every description
    const text = box.run("install", `${repo}#main`, "--skill", "brainstorm", "--user", "--yes");
    expect(text.stdout).toContain("package_not_collection");
    expect(text.stdout).toContain("did you mean brainstorming?");
    expect(text.stdout).not.toContain("Find the cause of a bug.");
    expect(existsSync(join(box.configDir, "lock.json"))).toBe(false);
    const one = box.run(
      "install",
      `${repo}//skills/brainstorming#main`,
      "--user",
      "--yes",
      "--json",
    );
    expect(one.status, one.stdout).toBe(0);
    const lock = JSON.parse(readFileSync(join(box.configDir, "lock.json"), "utf8"));
    expect(Object.keys(lock.packages)).toEqual(["brainstorming"]);
  });

  it("an unknown --skill of a collection gets a did-you-mean", () => {
    const box = changeSandbox();
    const repo = gitRepo([
      {
        tree: {
          "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
          "skills/docx/SKILL.md": skillFile("docx", "Read Word files."),
        },
      },
    ]).path;
    const run = box.run("install", `${repo}#main`, "--skill", "pfd", "--user", "--yes", "--json");
    expect(refusalOf(run)).toMatchObject({
      code: "collection_skill_unknown",
      details: { unknown: [{ name: "pfd", suggestion: "pdf" }] },
    });
  });
});

describe("options are checked before anything is staged (item 2)", () => {
  it("a mistyped --agent is a usage error for a real run and a dry run alike", () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: packageTree({ id: "tools" }) }]).path;
    for (const extra of [["--yes"], ["--dry-run"]]) {
      const run = box.run("install", `${repo}#main`, "--user", "--agent", "claude", ...extra);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain("usage_invalid_value");
    }
    expect(existsSync(join(box.configDir, "lock.json"))).toBe(false);
    expect(existsSync(join(box.configDir, "packages"))).toBe(false);
  });
});
