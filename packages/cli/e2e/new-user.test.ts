import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  gitEnv,
  gitRepo,
  packageTree,
  serve,
  skillFile,
  testdir,
  writeTree,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { BIN, type CliRun, runCli } from "../test/_run.js";
import { changeSandbox, codesOf } from "../test/_sandbox.js";

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

describe("--skill on a repository that is one package (issue 52, item 1)", () => {
  it("picks the plugin's skills as a collection's: plain skill packages, visible to a model", async () => {
    const box = changeSandbox();
    const repo = pluginRepo();
    const pick = (skill: string, ...more: string[]) =>
      box.run("install", `${repo}#main`, "--skill", skill, "--user", "--yes", ...more);
    const typo = await pick("brainstorm", "--json");
    expect(refusalOf(typo)).toMatchObject({
      code: "collection_skill_unknown",
      details: { unknown: [{ name: "brainstorm", suggestion: "brainstorming" }] },
    });
    expect(existsSync(join(box.configDir, "lock.json"))).toBe(false);
    const picked = await pick("brainstorming", "--json");
    expect(picked.status, picked.stdout).toBe(0);
    const lock = () => JSON.parse(readFileSync(join(box.configDir, "lock.json"), "utf8"));
    expect(lock().packages.brainstorming).toMatchObject({
      kind: "skill",
      trust: "trusted",
      source: { type: "git", path: "skills/brainstorming", ref: "main" },
    });
    const all = await pick("*", "--json");
    expect(all.status, all.stdout).toBe(0);
    expect(Object.keys(lock().packages).sort()).toEqual(["brainstorming", "debugging"]);
    const listed = JSON.parse((await box.run("list", "--json")).stdout) as {
      skills: { name: string; modelVisible: boolean }[];
    };
    expect(listed.skills.filter((skill) => skill.modelVisible).map((skill) => skill.name)).toEqual([
      "brainstorming",
      "debugging",
    ]);
  });

  it("an unknown --skill of a collection gets a did-you-mean", async () => {
    const box = changeSandbox();
    const repo = gitRepo([
      {
        tree: {
          "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
          "skills/docx/SKILL.md": skillFile("docx", "Read Word files."),
        },
      },
    ]).path;
    const run = await box.run(
      "install",
      `${repo}#main`,
      "--skill",
      "pfd",
      "--user",
      "--yes",
      "--json",
    );
    expect(refusalOf(run)).toMatchObject({
      code: "collection_skill_unknown",
      details: { unknown: [{ name: "pfd", suggestion: "pdf" }] },
    });
  });
});

describe("options are checked before anything is staged (item 2)", () => {
  it("a mistyped --agent is a usage error for a real run and a dry run alike", async () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: packageTree({ id: "tools" }) }]).path;
    for (const extra of [["--yes"], ["--dry-run"]]) {
      const run = await box.run("install", `${repo}#main`, "--user", "--agent", "claude", ...extra);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain("usage_invalid_value");
    }
    expect(existsSync(join(box.configDir, "lock.json"))).toBe(false);
    expect(existsSync(join(box.configDir, "packages"))).toBe(false);
  });
});

describe("what never reaches the model is said (item 4)", () => {
  it("a Claude Code plugin's plan says its skills are not given to a model, why, and what to do", async () => {
    const box = changeSandbox();
    const repo = pluginRepo();
    const run = await box.run("install", `${repo}#main`, "--user", "--yes", "--json");
    expect(run.status, run.stdout).toBe(0);
    const step = (
      JSON.parse(run.stdout) as {
        plan: { steps: { model: { given: boolean; reason: string; next: string } }[] };
      }
    ).plan.steps[0];
    expect(step?.model.given).toBe(false);
    expect(step?.model.next).toContain("skillshelf trust powers");
    expect(step?.model.next).toContain(`${repo}#main --skill '*'`);
    const text = await box.run("install", `${repo}#main`, "--project", "--dry-run");
    expect(text.stdout).toContain("not given to a model");
    // and indeed the catalog offers none of them, while a skill's folder installed alone is given
    expect((await box.run("catalog")).stdout).not.toContain("brainstorming");
    expect(
      (await box.run("install", `${repo}//skills/brainstorming#main`, "--user", "--yes")).status,
    ).toBe(0);
    expect((await box.run("catalog")).stdout).toContain("brainstorming");
  });
});

describe("disable takes a package's links out of the agents' folders (item 5)", () => {
  it("and enable puts them back; verify flags a link left to a disabled copy", async () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: packageTree({ id: "tools", skills: ["pdf"] }) }]).path;
    expect(
      (await box.run("install", `${repo}#main`, "--user", "--agent", "claude-code", "--yes"))
        .status,
    ).toBe(0);
    expect(
      (await box.run("link", "pdf", "--agent", "opencode", "--copy", "--user", "--yes")).status,
    ).toBe(0);
    const claude = join(box.home, ".claude", "skills", "pdf");
    const opencode = join(box.home, ".config", "opencode", "skills", "pdf");
    const lockText = () => readFileSync(join(box.configDir, "lock.json"), "utf8");
    const links = Object.keys(JSON.parse(lockText()).links);
    // a dry run says which links go (item 13)
    const dry = await box.run("disable", "tools", "--user", "--dry-run");
    expect(dry.stdout).toContain("unlink from claude-code: ~/.claude/skills/pdf");
    expect(dry.stdout).toContain("unlink from opencode: ~/.config/opencode/skills/pdf");
    expect((await box.run("disable", "tools", "--user", "--yes")).status).toBe(0);
    expect(existsSync(claude)).toBe(false);
    expect(existsSync(opencode)).toBe(false);
    // still recorded: the lock keeps them for when the package is on again
    expect(Object.keys(JSON.parse(lockText()).links)).toEqual(links);
    const verify = async () =>
      (
        JSON.parse((await box.run("verify", "--json")).stdout) as {
          scopes: { problems: { code: string; path: string }[] }[];
        }
      ).scopes.flatMap((scope) => scope.problems.map((problem) => [problem.code, problem.path]));
    expect(await verify()).toEqual([]);
    // a restore leaves a disabled package's links out too
    expect((await box.run("install", "--user", "--yes")).status).toBe(0);
    expect(existsSync(claude)).toBe(false);
    expect((await box.run("enable", "tools", "--user", "--yes")).status).toBe(0);
    expect(existsSync(join(claude, "SKILL.md"))).toBe(true);
    expect(existsSync(join(opencode, "SKILL.md"))).toBe(true);
    expect(await verify()).toEqual([]);
    // a link put back by hand while the package is off is flagged
    expect((await box.run("disable", "tools", "--user", "--yes")).status).toBe(0);
    execFileSync("ln", ["-s", "../../.config/skillshelf/packages/tools/skills/pdf", claude]);
    expect(await verify()).toEqual([["link_to_disabled", claude]]);
  });
});

describe("rollback (item 7)", () => {
  it("shows what it changes like update does, and a second one has nothing earlier to go to", async () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: packageTree({ id: "tools", skills: ["pdf"] }) }]);
    expect((await box.run("install", `${repo.path}#main`, "--user", "--yes")).status).toBe(0);
    writeTree(repo.path, {
      "skills/pdf/SKILL.md": skillFile("pdf", "Fill, read and merge PDF files."),
    });
    execFileSync("git", ["-C", repo.path, "commit", "-qam", "v2"], { env: gitEnv() });
    expect((await box.run("update", "tools", "--user", "--yes")).status).toBe(0);
    const back = await box.run("rollback", "tools", "--user", "--yes");
    expect(back.status, back.stdout).toBe(0);
    expect(back.stdout).toContain("what a model is given changes");
    expect(back.stdout).toContain("skill pdf: description changed");
    const again = await box.run("rollback", "tools", "--user", "--yes", "--json");
    expect(again.status).toBe(1);
    expect(refusalOf(again)?.code).toBe("no_previous_version");
  });
});

describe("a user library outside the home folder (item 6)", () => {
  it("links into agents' user folders without a symlink_escape, and the agents load them", () => {
    const box = changeSandbox();
    const library = testdir({
      "skills/pdf/SKILL.md": skillFile("pdf", "Fill and read PDF forms."),
    });
    const run = (...args: string[]) =>
      runCli(args, { cwd: box.cwd, env: { ...box.env, SKILLSHELF_HOME: library } });
    expect(run("link", "pdf", "--agent", "claude-code", "--user", "--yes").status).toBe(0);
    const listed = JSON.parse(run("list", "--json").stdout) as {
      skills: { name: string }[];
      diagnostics: { code: string }[];
    };
    expect(listed.diagnostics.map((d) => d.code)).not.toContain("symlink_escape");
    const explained = JSON.parse(run("explain", "--agent", "claude-code", "--json").stdout) as {
      agents: { loaded: { name: string }[] }[];
    };
    expect(explained.agents[0]?.loaded.map((skill) => skill.name)).toEqual(["pdf"]);
    expect(run("verify", "--json").status).toBe(0);
  });
});

describe("a repository of commands and agents (item 8)", () => {
  it("installs its templates and agents as packages, chosen by name, and restores them from the lock", async () => {
    const box = changeSandbox();
    execFileSync("mkdir", ["-p", join(box.cwd, ".git")]);
    const repo = gitRepo([
      {
        tree: {
          "commands/review.md": "---\ndescription: Review the change.\n---\nReview $ARGUMENTS.\n",
          "commands/git/commit.md": "Write a commit message for $ARGUMENTS.\n",
          "commands/Release Notes.md": "Draft release notes.\n",
          "agents/tester.md":
            "---\nname: tester\ndescription: Writes tests.\ntools: Read, Bash\n---\nYou write tests.\n",
        },
      },
    ]).path;
    const one = await box.run(
      "install",
      `${repo}#main`,
      "--skill",
      "git:commit",
      "--project",
      "--yes",
    );
    expect(one.status, one.stdout + one.stderr).toBe(0);
    // `*` is every skill, and this repository has none: its other kinds are named by kind
    const skillsOnly = await box.run(
      "install",
      `${repo}#main`,
      "--skill",
      "*",
      "--project",
      "--yes",
      "--json",
    );
    expect(codesOf(skillsOnly)).toEqual(["collection_choice_required"]);
    const all = await box.run(
      "install",
      `${repo}#main`,
      "--skill",
      "prompt:*,agent:*",
      "--project",
      "--yes",
      "--json",
    );
    // git-commit is there already, which is said; the rest install
    expect(all.status, all.stdout).toBe(0);
    const steps = (JSON.parse(all.stdout) as { plan: { steps: { id: string; kind: string }[] } })
      .plan.steps;
    expect(steps.map((step) => `${step.kind}:${step.id}`).sort()).toEqual([
      "agent:tester",
      "prompt:review",
    ]);
    expect(codesOf(all)).toContain("already_installed");
    // the name that cannot be a package id is left out, and says why
    expect(all.stdout).toContain("collection_skill_invalid");
    await box.run("install", `${repo}#main`, "--skill", "review,tester", "--project", "--yes");
    const listed = JSON.parse((await box.run("list", "--kind", "all", "--json")).stdout) as {
      prompts: { name: string }[];
      agents: { name: string }[];
    };
    expect(listed.prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(["git:commit", "review"]),
    );
    expect(listed.agents.map((agent) => agent.name)).toContain("tester");
    expect((await box.run("prompt", "git:commit", "the fix")).stdout).toContain(
      "Write a commit message for the fix.",
    );
    // a fresh clone gets them back from the lock alone
    execFileSync("rm", ["-r", join(box.cwd, ".skillshelf", "packages")]);
    expect((await box.run("install", "--project", "--yes")).status).toBe(0);
    expect((await box.run("verify")).status).toBe(0);
  });

  it("refuses a repository with nothing it can install, naming the real reason in text", async () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: { "commands/Do Things.md": "Do things.\n" } }]).path;
    const run = await box.run("install", `${repo}#main`, "--user", "--yes");
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("collection_empty");
    expect(run.stdout).toContain("collection_skill_invalid");
    expect(run.stdout).toContain("Do Things.md");
  });
});

describe("sub-agents link like skills (item 9)", () => {
  it("into the agents with an agent folder, and elsewhere refused for the right reason", async () => {
    const box = changeSandbox();
    const repo = gitRepo([
      {
        tree: {
          "agents/tester.md":
            "---\nname: tester\ndescription: Writes tests.\n---\nYou write tests.\n",
        },
      },
    ]).path;
    expect((await box.run("install", `${repo}#main`, "--user", "--yes")).status).toBe(0);
    const linked = await box.run("link", "tester", "--agent", "claude-code", "--user", "--yes");
    expect(linked.status, linked.stdout).toBe(0);
    expect(readFileSync(join(box.home, ".claude", "agents", "tester.md"), "utf8")).toContain(
      "You write tests.",
    );
    const codex = await box.run("link", "tester", "--agent", "codex", "--user", "--yes", "--json");
    expect(codex.status).toBe(1);
    expect(
      (JSON.parse(codex.stdout) as { plan: { steps: { refusal?: { code: string } }[] } }).plan
        .steps[0]?.refusal?.code,
    ).toBe("link_agent_unsupported");
    expect((await box.run("verify")).status).toBe(0);
    expect((await box.run("unlink", "tester", "--user", "--yes")).status).toBe(0);
    expect(existsSync(join(box.home, ".claude", "agents", "tester.md"))).toBe(false);
  });
});

describe("links and copies Skillshelf made (item 10)", () => {
  it("are the skill they link, not a clash", async () => {
    const box = changeSandbox();
    writeTree(join(box.configDir, "skills", "pdf"), {
      "SKILL.md": skillFile("pdf", "Fill and read PDF forms."),
    });
    expect(
      (await box.run("link", "pdf", "--agent", "claude-code", "--copy", "--user", "--yes")).status,
    ).toBe(0);
    expect((await box.run("link", "pdf", "--agent", "opencode", "--user", "--yes")).status).toBe(0);
    const listed = JSON.parse((await box.run("list", "--json")).stdout) as {
      skills: { name: string }[];
      diagnostics: { code: string }[];
    };
    expect(listed.skills.map((skill) => skill.name)).toEqual(["pdf"]);
    expect(listed.diagnostics.map((d) => d.code)).not.toContain("collision");
  });
});

describe("validate reads a folder as install does (item 11)", () => {
  it("finds skills in an agent's hidden folder instead of saying path_missing", async () => {
    const box = changeSandbox();
    const folder = testdir({
      ".claude/skills/tidy/SKILL.md": skillFile("tidy", "Tidy a repository."),
      ".agents/skills/lint/SKILL.md": skillFile("lint", "Lint the code."),
    });
    const run = await box.run("validate", folder, "--json");
    expect(run.status, run.stdout).toBe(0);
    const result = (JSON.parse(run.stdout) as { results: { names: string[] }[] }).results[0];
    expect(result?.names.sort()).toEqual(["lint", "tidy"]);
    const installed = await box.run("install", folder, "--skill", "*", "--user", "--yes", "--json");
    expect(installed.status).toBe(0);
  });
});

/** A loopback server that sends the start of `/slow.tar.gz` and then nothing more; `asked` once it has. */
async function stalledArchive(): Promise<{ base: string; asked: Promise<void> }> {
  let requested: () => void = () => {};
  const asked = new Promise<void>((resolve) => {
    requested = resolve;
  });
  const base = await serve({
    "/slow.tar.gz": (_request, response) => {
      response.writeHead(200, { "content-type": "application/gzip" });
      response.write(Buffer.alloc(1024));
      requested();
    },
  });
  return { base, asked };
}

describe("Ctrl-C while a source is fetched (item 12)", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s stops the fetch, removes what was staged and says so, exit 130",
    async (signal) => {
      const box = changeSandbox();
      const tmp = testdir();
      const { base, asked } = await stalledArchive();
      const child = spawn(
        process.execPath,
        [BIN, "install", `${base}/slow.tar.gz`, "--user", "--yes"],
        {
          cwd: box.cwd,
          env: { ...box.env, PATH: process.env.PATH ?? "", TMPDIR: tmp },
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      await asked;
      child.kill(signal);
      expect(await exited).toBe(130);
      expect(stderr).toContain("interrupted");
      expect(readdirSync(tmp)).toEqual([]);
      expect(existsSync(join(box.configDir, "lock.json"))).toBe(false);
    },
  );

  it("SIGKILL leaves the staging, which doctor reports and the next fetch removes", async () => {
    const box = changeSandbox();
    const tmp = testdir();
    const { base, asked } = await stalledArchive();
    const env = { ...box.env, PATH: process.env.PATH ?? "", TMPDIR: tmp };
    const child = spawn(
      process.execPath,
      [BIN, "install", `${base}/slow.tar.gz`, "--user", "--yes"],
      {
        cwd: box.cwd,
        env,
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("close", (_code, signal) => resolve(signal)),
    );
    await asked;
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const left = readdirSync(tmp);
    expect(left).toHaveLength(1);
    const doctor = JSON.parse(runCli(["doctor", "--json"], { cwd: box.cwd, env }).stdout) as {
      findings: { code: string; path: string }[];
    };
    expect(doctor.findings.map((finding) => [finding.code, finding.path])).toContainEqual([
      "leftover_found",
      join(tmp, left[0] as string),
    ]);
    const source = testdir({ "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    expect(runCli(["install", source, "--user", "--yes"], { cwd: box.cwd, env }).status).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe("installing what is installed (item 13)", () => {
  it("the same package again is already installed, exit 0; other content is refused unless --force", async () => {
    const box = changeSandbox();
    const source = testdir({ "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    expect((await box.run("install", source, "--user", "--yes")).status).toBe(0);
    const again = await box.run("install", source, "--user", "--yes");
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(again.stderr).toContain("already_installed");
    expect(again.stdout).toContain("nothing to change");
    const json = await box.run("install", source, "--user", "--yes", "--json");
    expect(codesOf(json)).toEqual(["already_installed"]);
    const other = testdir({ "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF forms.") });
    const refused = await box.run("install", other, "--user", "--yes", "--json");
    expect(refused.status).toBe(1);
    expect(codesOf(refused)).toEqual(["installed_differs"]);
    const digest = box.userLock().pdf?.digest;
    const forced = await box.run("install", other, "--user", "--yes", "--force");
    expect(forced.status, forced.stdout + forced.stderr).toBe(0);
    expect(box.userLock().pdf?.digest).not.toBe(digest);
  });
});
