import { pathToFileURL } from "node:url";
import { gitRepo, link, skillFile, type Tree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

// Issue 52: what a newcomer's first `install OWNER/REPO --skill '*'` meets in real repositories,
// each layout built here as a git repository and installed through the command.

interface Result {
  readonly status: number | null;
  readonly installed: string[];
  readonly refused: [string, string | undefined][];
  readonly stdout: string;
}

async function install(
  box: ReturnType<typeof changeSandbox>,
  tree: Tree,
  ...options: string[]
): Promise<Result> {
  const url = pathToFileURL(gitRepo([{ tree }]).path).href;
  const run = await box.run("install", url, "--user", "--yes", "--json", ...options);
  const result = JSON.parse(run.stdout) as {
    plan: { steps: { id: string; kind: string; refusal?: { code: string } }[] };
  };
  return {
    status: run.status,
    installed: result.plan.steps
      .filter((step) => step.refusal === undefined)
      .map((step) => `${step.kind}:${step.id}`)
      .sort(),
    refused: result.plan.steps
      .filter((step) => step.refusal !== undefined)
      .map((step) => [step.id, step.refusal?.code]),
    stdout: run.stdout,
  };
}

const skill = (name: string) => skillFile(name, `Use for ${name}.`);

describe("symlinked mirrors are one skill, not a clash (issue 52, item 2)", () => {
  it("keeps the skill a mirror links to, once, and refuses a dangling link with its own code", async () => {
    const box = changeSandbox();
    const result = await install(
      box,
      {
        "engineering/team/board/SKILL.md": skill("board"),
        "engineering/team/board/references/guide.md": "# Guide\n",
        "engineering/team/review/SKILL.md": skill("review"),
        // agents' folders mirroring the real skills, file by file and folder by folder
        ".gemini/skills/board/SKILL.md": link("../../../engineering/team/board/SKILL.md"),
        ".claude/skills/review": link("../../engineering/team/review"),
        ".gemini/skills/gone/SKILL.md": link("../../../engineering/team/gone/SKILL.md"),
      },
      "--skill",
      "*",
    );
    expect(result.installed).toEqual(["skill:board", "skill:review"]);
    expect(result.refused).toEqual([[".gemini/skills/gone", "collection_link_dangling"]]);
    expect(result.stdout).not.toContain("collection_duplicate");
  });
});

describe("--skill '*' means skills (issue 52, item 3)", () => {
  const tree: Tree = {
    "skills/pdf/SKILL.md": skill("pdf"),
    "agents/reviewer.agent.md":
      "---\nname: reviewer\ndescription: Reviews changes.\ntools: ['read']\n---\nReview.\n",
    "commands/ship.md": "---\ndescription: Ship it.\n---\nShip $ARGUMENTS.\n",
  };

  it("installs the skills alone; other kinds only when named by kind", async () => {
    const box = changeSandbox();
    const skills = await install(box, tree, "--skill", "*");
    expect(skills).toMatchObject({ status: 0, installed: ["skill:pdf"], refused: [] });
    const prompts = await install(changeSandbox(), tree, "--skill", "prompt:*");
    expect(prompts.installed).toEqual(["prompt:ship"]);
  });
});
