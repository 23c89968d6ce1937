import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { AGENTS, agentNeedsCopy, agentSkillFolder } from "@skillshelf/core";
import { copyCorpus, gitRepo, packageTree, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runMain } from "./_run.js";
import { changeSandbox, codesOf } from "./_sandbox.js";

const BRAND = "skills/anthropics-skills/skills/brand-guidelines";
const COMMS = "skills/anthropics-skills/skills/internal-comms";

/** A corpus skill copied into a folder of its own name (the collection is that one skill). */
function corpusSkill(relative: string, name: string): string {
  const dir = join(testdir(), name);
  execFileSync("cp", ["-r", copyCorpus(relative), dir]);
  return dir;
}

const verifyCodes = async (box: ReturnType<typeof changeSandbox>) => {
  const run = await box.run("verify", "--json");
  const result = JSON.parse(run.stdout) as {
    scopes: { problems: { code: string; path: string }[] }[];
  };
  return {
    status: run.status,
    problems: result.scopes.flatMap((scope) => scope.problems.map((p) => [p.code, p.path])),
  };
};

describe("install once, link everywhere", () => {
  it("links at install with --agent, and verify passes", async () => {
    const box = changeSandbox();
    const dir = corpusSkill(BRAND, "brand-guidelines");
    const run = await box.run("install", dir, "--user", "--yes", "--agent", "claude-code,codex");
    expect(run.status, run.stderr).toBe(0);
    for (const folder of [".claude/skills", ".agents/skills"]) {
      const path = join(box.home, folder, "brand-guidelines");
      expect(readlinkSync(path)).toBe("../../.config/skillshelf/packages/brand-guidelines");
      expect(readFileSync(join(path, "SKILL.md"), "utf8")).toContain("name: brand-guidelines");
    }
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
    const lock = JSON.parse(readFileSync(join(box.configDir, "lock.json"), "utf8"));
    expect(Object.keys(lock.links)).toEqual([
      ".agents/skills/brand-guidelines",
      ".claude/skills/brand-guidelines",
    ]);
  });

  it("names every agent asked for that one shared folder's link serves, at install and link", async () => {
    const box = changeSandbox();
    const dir = corpusSkill(BRAND, "brand-guidelines");
    // Codex and Cline both read ~/.agents/skills; Cline loads only a copied folder
    const install = await box.run("install", dir, "--user", "--yes", "--agent", "codex,cline");
    expect(install.status, install.stderr).toBe(0);
    expect(install.stdout).toContain(
      "link into codex, cline as a copy: ~/.agents/skills/brand-guidelines",
    );
    expect(lstatSync(join(box.home, ".agents", "skills", "brand-guidelines")).isDirectory()).toBe(
      true,
    );
    // a second library, where the skill is installed without links
    const other = changeSandbox();
    expect((await other.run("install", dir, "--user", "--yes")).status).toBe(0);
    const text = await other.run(
      "link",
      "brand-guidelines",
      "--agent",
      "codex,agents",
      "--user",
      "--yes",
    );
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain("linked .agents/skills/brand-guidelines (codex, agents)");
    const json = await other.run(
      "link",
      "brand-guidelines",
      "--agent",
      "agents,codex,claude-code",
      "--user",
      "--yes",
      "--json",
    );
    expect(json.status, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout).plan as {
      steps: { agent: string; alsoFor?: string[]; key: string; inPlace: boolean }[];
    };
    expect(plan.steps.map((step) => [step.agent, step.alsoFor, step.key, step.inPlace])).toEqual([
      ["agents", ["codex"], ".agents/skills/brand-guidelines", true],
      ["claude-code", undefined, ".claude/skills/brand-guidelines", false],
    ]);
  });

  it("links in the install's own step, and a re-run makes the links missing (issue 22, item 7)", async () => {
    const box = changeSandbox();
    const dir = corpusSkill(BRAND, "brand-guidelines");
    expect((await box.run("install", dir, "--user", "--yes")).status).toBe(0);
    const lockBefore = readFileSync(join(box.configDir, "lock.json"), "utf8");
    // a typo in an option is refused before anything is staged or written
    const typo = await box.run("install", dir, "--user", "--yes", "--agent", "claude", "--json");
    expect(typo.status).toBe(2);
    expect(readFileSync(join(box.configDir, "lock.json"), "utf8")).toBe(lockBefore);
    // the package is there: only its links are made, in one step
    const linked = await box.run(
      "install",
      dir,
      "--user",
      "--yes",
      "--agent",
      "claude-code",
      "--json",
    );
    expect(linked.status, linked.stdout).toBe(0);
    const plan = JSON.parse(linked.stdout) as {
      plan: { steps: { links: { key: string; inPlace: boolean }[] }[] };
    };
    expect(plan.plan.steps[0]?.links).toEqual([
      expect.objectContaining({ key: ".claude/skills/brand-guidelines", inPlace: false }),
    ]);
    const link = join(box.home, ".claude", "skills", "brand-guidelines");
    expect(readlinkSync(link)).toBe("../../.config/skillshelf/packages/brand-guidelines");
    execFileSync("rm", [link]);
    expect(
      (await box.run("install", dir, "--user", "--yes", "--agent", "claude-code")).status,
    ).toBe(0);
    expect(readlinkSync(link)).toBe("../../.config/skillshelf/packages/brand-guidelines");
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
  });

  it("verify and doctor find a link into the library that nothing records (issue 22, item 2)", async () => {
    const box = changeSandbox();
    expect(
      (await box.run("install", corpusSkill(BRAND, "brand-guidelines"), "--user", "--yes")).status,
    ).toBe(0);
    const stray = join(box.home, ".claude", "skills", "stray");
    execFileSync("mkdir", ["-p", join(box.home, ".claude", "skills")]);
    execFileSync("ln", ["-s", "../../.config/skillshelf/packages/brand-guidelines", stray]);
    // a user's own link elsewhere is none of Skillshelf's business
    execFileSync("ln", ["-s", testdir(), join(box.home, ".claude", "skills", "mine")]);
    expect(await verifyCodes(box)).toEqual({ status: 1, problems: [["link_unrecorded", stray]] });
    const doctor = JSON.parse((await box.run("doctor", "--json")).stdout) as {
      findings: { code: string; path: string }[];
    };
    expect(doctor.findings.map((finding) => [finding.code, finding.path])).toContainEqual([
      "link_unrecorded",
      stray,
    ]);
  });

  it("links, copies and unlinks by name, and verify names every link fault", async () => {
    const box = changeSandbox();
    await box.run("install", corpusSkill(BRAND, "brand-guidelines"), "--user", "--yes");
    // off a terminal a link needs --yes like every change
    const unconfirmed = await box.run(
      "link",
      "brand-guidelines",
      "--agent",
      "pi",
      "--user",
      "--json",
    );
    expect(unconfirmed.status).toBe(1);
    expect(codesOf(unconfirmed)).toEqual(["confirmation_required"]);
    expect(
      (await box.run("link", "brand-guidelines", "--agent", "pi", "--user", "--yes")).status,
    ).toBe(0);
    const copied = await box.run(
      "link",
      "brand-guidelines",
      "--agent",
      "opencode,agents",
      "--copy",
      "--user",
      "--yes",
    );
    expect(copied.status, copied.stderr).toBe(0);
    expect(copied.stdout).toContain("copied");
    const copy = join(box.home, ".config", "opencode", "skills", "brand-guidelines");
    expect(lstatSync(copy).isDirectory()).toBe(true);
    expect((await verifyCodes(box)).status).toBe(0);
    appendFileSync(join(copy, "SKILL.md"), "\nedited\n");
    execFileSync("rm", ["-r", join(box.home, ".agents", "skills", "brand-guidelines")]);
    const pi = join(box.home, ".pi", "agent", "skills", "brand-guidelines");
    execFileSync("rm", [pi]);
    execFileSync("ln", ["-s", testdir(), pi]);
    const verified = await verifyCodes(box);
    expect(verified.status).toBe(1);
    expect(verified.problems).toEqual([
      ["link_missing", join(box.home, ".agents", "skills", "brand-guidelines")],
      ["link_changed", copy],
      ["link_repointed", pi],
    ]);
    const unlink = await box.run(
      "unlink",
      "brand-guidelines",
      "--agent",
      "agents",
      "--user",
      "--yes",
    );
    expect(unlink.status, unlink.stderr).toBe(0);
    expect((await verifyCodes(box)).problems.map(([code]) => code)).toEqual([
      "link_changed",
      "link_repointed",
    ]);
  });

  it("unlinks by the name link took, and by the link's own folder name (issue 22, item 9)", async () => {
    const box = changeSandbox();
    // a skill named nl in a folder named otherwise
    writeTree(join(box.configDir, "skills", "nl-tool"), {
      "SKILL.md": "---\nname: nl\ndescription: Natural language helper.\n---\nBody.\n",
    });
    const linkNl = async () =>
      await box.run("link", "nl", "--agent", "claude-code,codex", "--user", "--yes", "--json");
    expect((await linkNl()).status).toBe(0);
    const byName = await box.run("unlink", "nl", "--agent", "codex", "--user", "--yes", "--json");
    expect(byName.status, byName.stdout).toBe(0);
    expect(existsSync(join(box.home, ".agents", "skills", "nl-tool"))).toBe(false);
    const byFolder = await box.run("unlink", "nl-tool", "--user", "--yes", "--json");
    expect(byFolder.status, byFolder.stdout).toBe(0);
    expect(existsSync(join(box.home, ".claude", "skills", "nl-tool"))).toBe(false);
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
  });

  it("links and unlinks by kind:name, by path and by package id alike (issue 51, item 5)", async () => {
    const box = changeSandbox();
    const kit = testdir(packageTree({ id: "team-kit", skills: ["pdf", "csv"] }));
    expect((await box.run("install", kit, "--user", "--yes")).status).toBe(0);
    const copy = join(box.configDir, "packages", "team-kit");
    const linked = (agent: string, name: string) =>
      existsSync(join(box.home, agent, "skills", name));
    const change = async (...args: string[]) => {
      const run = await box.run(...args, "--user", "--yes", "--json");
      expect(run.status, run.stdout).toBe(0);
    };
    await change("link", "skill:pdf", "--agent", "claude-code");
    await change("link", join(copy, "skills", "csv"), "--agent", "claude-code");
    await change("link", "team-kit", "--agent", "codex");
    expect([linked(".claude", "pdf"), linked(".claude", "csv")]).toEqual([true, true]);
    expect([linked(".agents", "pdf"), linked(".agents", "csv")]).toEqual([true, true]);
    // unlink: by kind:name, by the link's own path, by the linked folder's path, by package id
    await change("unlink", "skill:pdf", "--agent", "claude-code");
    await change("unlink", join(box.home, ".claude", "skills", "csv"));
    expect([linked(".claude", "pdf"), linked(".claude", "csv")]).toEqual([false, false]);
    await change("link", "pdf", "--agent", "claude-code");
    await change("unlink", join(copy, "skills", "pdf"), "--agent", "claude-code");
    expect(linked(".claude", "pdf")).toBe(false);
    await change("unlink", "team-kit");
    expect([linked(".agents", "pdf"), linked(".agents", "csv")]).toEqual([false, false]);
    // a path, a kind or an id that names nothing is refused, as a name is
    for (const name of [join(copy, "skills", "none"), "prompt:pdf", "other-kit"]) {
      const run = await box.run("unlink", name, "--user", "--yes", "--json");
      expect(codesOf(run), name).toEqual(["link_unknown"]);
    }
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
  });

  it("reports a copy left behind by its skill (copy_stale), and link or install makes it again (issue 52, item 7)", async () => {
    const box = changeSandbox();
    const skill = join(box.configDir, "skills", "pdf", "SKILL.md");
    writeTree(join(box.configDir, "skills", "pdf"), {
      "SKILL.md": "---\nname: pdf\ndescription: Read PDF files.\n---\nOne step.\n",
    });
    const link = (...more: string[]) =>
      box.run("link", "pdf", "--agent", "cursor", "--user", "--yes", "--json", ...more);
    expect((await link()).status).toBe(0);
    const copy = join(box.home, ".cursor", "skills", "pdf", "SKILL.md");
    expect(lstatSync(join(copy, "..")).isSymbolicLink()).toBe(false);
    appendFileSync(skill, "Two steps.\n");
    expect(await verifyCodes(box)).toEqual({
      status: 1,
      problems: [["copy_stale", join(box.home, ".cursor", "skills", "pdf")]],
    });
    const doctor = JSON.parse((await box.run("doctor", "--json")).stdout) as {
      findings: { code: string }[];
    };
    expect(doctor.findings.map((finding) => finding.code)).toContain("copy_stale");
    // while stale, the copy is a skill of its own: list --all says they drifted apart
    const all = JSON.parse((await box.run("list", "--all", "--json")).stdout) as {
      skills: { name: string; drift?: string[] }[];
    };
    expect(
      all.skills.filter((one) => one.name === "pdf").map((one) => one.drift?.length ?? 0),
    ).toContain(2);
    // link makes its own copy again, where a copy of someone else's would be link_conflict
    expect((await link()).status).toBe(0);
    expect(readFileSync(copy, "utf8")).toContain("Two steps.");
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
    // and a repair by install does the same
    appendFileSync(skill, "Three steps.\n");
    expect((await box.run("install", "--user", "--yes")).status).toBe(0);
    expect(readFileSync(copy, "utf8")).toContain("Three steps.");
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
    // a copy edited by hand is still left alone
    appendFileSync(copy, "Mine.\n");
    expect(codesOf(await link())).toEqual(["link_conflict"]);
  });

  it("repairs with install alone what verify reports: a copy and a link gone (issue 22, item 8)", async () => {
    const box = changeSandbox();
    const dir = corpusSkill(BRAND, "brand-guidelines");
    expect(
      (await box.run("install", dir, "--user", "--yes", "--agent", "claude-code")).status,
    ).toBe(0);
    execFileSync("rm", ["-r", join(box.configDir, "packages", "brand-guidelines")]);
    execFileSync("rm", [join(box.home, ".claude", "skills", "brand-guidelines")]);
    const broken = await box.run("verify", "--json");
    expect(broken.status).toBe(1);
    const problems = (
      JSON.parse(broken.stdout) as { scopes: { problems: { code: string; hint: string }[] }[] }
    ).scopes.flatMap((scope) => scope.problems);
    expect(problems.map((problem) => problem.code)).toEqual(["copy_missing", "link_missing"]);
    expect(problems[0]?.hint).toContain("skillshelf install --user");
    const repaired = await box.run("install", "--user", "--yes");
    expect(repaired.status, repaired.stdout + repaired.stderr).toBe(0);
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
    expect(
      readFileSync(join(box.home, ".claude", "skills", "brand-guidelines", "SKILL.md"), "utf8"),
    ).toContain("brand-guidelines");
  });

  it("leaves a user's own folder in the way untouched (link_conflict)", async () => {
    const box = changeSandbox();
    await box.run("install", corpusSkill(BRAND, "brand-guidelines"), "--user", "--yes");
    const own = join(box.home, ".claude", "skills", "brand-guidelines");
    writeTree(own, { "SKILL.md": "my own notes\n" });
    const run = await box.run(
      "link",
      "brand-guidelines",
      "--agent",
      "claude-code",
      "--user",
      "--yes",
      "--json",
    );
    expect(run.status).toBe(1);
    expect(codesOf(run)).toEqual(["link_conflict"]);
    expect(JSON.parse(run.stdout).plan.steps[0].path).toBe(own);
    expect(readFileSync(join(own, "SKILL.md"), "utf8")).toBe("my own notes\n");
    // an agent folder that is a symlink is refused and left as it is
    const elsewhere = testdir();
    execFileSync("ln", ["-s", elsewhere, join(box.home, ".agents")]);
    const unsafe = await box.run(
      "link",
      "brand-guidelines",
      "--agent",
      "codex",
      "--user",
      "--yes",
      "--json",
    );
    expect(codesOf(unsafe)).toEqual(["link_unsafe"]);
    expect(existsSync(join(elsewhere, "skills"))).toBe(false);
    // a name that is not a resource of the scope
    expect(
      codesOf(await box.run("link", "nowhere", "--agent", "pi", "--user", "--yes", "--json")),
    ).toEqual(["link_source_unknown"]);
    expect((await box.run("link", "brand-guidelines", "--agent", "nobody", "--user")).status).toBe(
      2,
    );
  });

  it("keeps links live through update and rollback, and remove takes them away", async () => {
    const box = changeSandbox();
    const brand = copyCorpus(BRAND);
    const repo = gitRepo(
      [{ tree: { "brand-guidelines/SKILL.md": readFileSync(join(brand, "SKILL.md"), "utf8") } }],
      box.env,
    );
    const install = await box.run(
      "install",
      `file://${repo.path}//brand-guidelines`,
      "--user",
      "--yes",
      "--agent",
      "claude-code",
    );
    expect(install.status, install.stderr).toBe(0);
    await box.run("link", "brand-guidelines", "--agent", "codex", "--copy", "--user", "--yes");
    writeFileSync(
      join(repo.path, "brand-guidelines", "SKILL.md"),
      readFileSync(join(brand, "SKILL.md"), "utf8").replace(
        "description:",
        "description: Updated.",
      ),
    );
    execFileSync("git", ["commit", "--quiet", "-am", "update"], { cwd: repo.path, env: box.env });
    const update = await box.run("update", "brand-guidelines", "--user", "--yes");
    expect(update.status, update.stderr).toBe(0);
    const linked = join(box.home, ".claude", "skills", "brand-guidelines", "SKILL.md");
    const copied = join(box.home, ".agents", "skills", "brand-guidelines", "SKILL.md");
    expect(readFileSync(linked, "utf8")).toContain("Updated.");
    expect(readFileSync(copied, "utf8")).toContain("Updated.");
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
    expect((await box.run("rollback", "brand-guidelines", "--user", "--yes")).status).toBe(0);
    expect(readFileSync(linked, "utf8")).not.toContain("Updated.");
    expect(readFileSync(copied, "utf8")).not.toContain("Updated.");
    expect(await verifyCodes(box)).toEqual({ status: 0, problems: [] });
    expect((await box.run("remove", "brand-guidelines", "--user", "--yes")).status).toBe(0);
    expect(existsSync(join(box.home, ".claude", "skills", "brand-guidelines"))).toBe(false);
    expect(existsSync(join(box.home, ".agents", "skills", "brand-guidelines"))).toBe(false);
    expect(
      JSON.parse(readFileSync(join(box.configDir, "lock.json"), "utf8")).links,
    ).toBeUndefined();
  });

  it("makes a fresh clone's links again with install alone (project scope)", async () => {
    const box = changeSandbox();
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", args, { cwd, env: box.env, encoding: "utf8" });
    git(box.cwd, "init", "--quiet", "--initial-branch=main");
    const comms = corpusSkill(COMMS, "internal-comms");
    const run = await box.run("install", comms, "--yes", "--agent", "claude-code,copilot");
    expect(run.status, run.stderr).toBe(0);
    expect(readlinkSync(join(box.cwd, ".github", "skills", "internal-comms"))).toBe(
      "../../.skillshelf/packages/internal-comms",
    );
    git(box.cwd, "add", ".skillshelf/lock.json");
    git(box.cwd, "commit", "--quiet", "-m", "lock");
    const clone = join(testdir(), "clone");
    git(box.cwd, "clone", "--quiet", box.cwd, clone);
    const restored = await runMain(["install", "--yes"], { cwd: clone, env: box.env });
    expect(restored.status, restored.stderr).toBe(0);
    for (const folder of [".claude/skills", ".github/skills"])
      expect(realpathSync(join(clone, folder, "internal-comms"))).toBe(
        realpathSync(join(clone, ".skillshelf", "packages", "internal-comms")),
      );
    expect((await runMain(["verify"], { cwd: clone, env: box.env })).status).toBe(0);
    // a link the lock lists but the disk lost is made again by install alone, confirmed
    execFileSync("rm", [join(clone, ".claude", "skills", "internal-comms")]);
    const unconfirmed = await runMain(["install", "--json"], { cwd: clone, env: box.env });
    expect(codesOf(unconfirmed)).toEqual(["confirmation_required"]);
    const relinked = await runMain(["install", "--yes", "--json"], { cwd: clone, env: box.env });
    expect(relinked.status, relinked.stderr).toBe(0);
    expect(JSON.parse(relinked.stdout).links.status).toBe("committed");
    expect(existsSync(join(clone, ".claude", "skills", "internal-comms", "SKILL.md"))).toBe(true);
    expect(
      JSON.parse(
        (await runMain(["install", "--yes", "--json"], { cwd: clone, env: box.env })).stdout,
      ).links,
    ).toBeUndefined();
    // unlink in the project scope: the link and its lock entry go, the other stays
    const unlinked = await runMain(["unlink", "internal-comms", "--agent", "copilot", "--yes"], {
      cwd: clone,
      env: box.env,
    });
    expect(unlinked.status, unlinked.stderr).toBe(0);
    expect(existsSync(join(clone, ".github", "skills", "internal-comms"))).toBe(false);
    const lock = JSON.parse(readFileSync(join(clone, ".skillshelf", "lock.json"), "utf8"));
    expect(Object.keys(lock.links)).toEqual([".claude/skills/internal-comms"]);
  });

  it("links a prompt template into agents with prompt folders, and --all-agents into existing folders", async () => {
    const box = changeSandbox();
    writeTree(join(box.configDir, "prompts"), {
      "review.md": "---\ndescription: Review.\n---\nReview $1.\n",
    });
    const run = await box.run("link", "review", "--agent", "opencode", "--user", "--yes");
    expect(run.status, run.stderr).toBe(0);
    expect(readlinkSync(join(box.home, ".config", "opencode", "command", "review.md"))).toBe(
      "../../skillshelf/prompts/review.md",
    );
    const unsupported = await box.run(
      "link",
      "review",
      "--agent",
      "copilot",
      "--user",
      "--yes",
      "--json",
    );
    expect(codesOf(unsupported)).toEqual(["link_agent_unsupported"]);
    // --all-agents: only the agents whose skill folder exists
    await box.run("install", corpusSkill(BRAND, "brand-guidelines"), "--user", "--yes");
    execFileSync("mkdir", ["-p", join(box.home, ".agents", "skills")]);
    const all = await box.run(
      "link",
      "brand-guidelines",
      "--all-agents",
      "--user",
      "--yes",
      "--json",
    );
    expect(all.status, all.stderr).toBe(0);
    // Codex and the shared .agents read one folder: one link serves both
    expect(JSON.parse(all.stdout).outcomes.map((o: { agent: string }) => o.agent)).toEqual([
      "codex",
    ]);
    expect(existsSync(join(box.home, ".claude", "skills", "brand-guidelines"))).toBe(false);
  });
});

describe("a link goes where the agent reads, in the form it reads (issue 23 item 1, issue 25 item 3)", () => {
  // every agent is checked in-process (lifecycle's link tests); through the bin, one of each form
  const sample = AGENTS.filter((agent) =>
    ["claude-code", "codex", "cursor", "cline", "eve", "goose"].includes(agent.id),
  );
  it.each(
    sample.flatMap((agent) =>
      (["user", "project"] as const).map((scope) => [agent, scope] as const),
    ),
  )("$0.id, %s scope: explain --agent shows the linked skill loaded", async (agent, scope) => {
    const box = changeSandbox();
    execFileSync("mkdir", ["-p", join(box.cwd, ".git")]);
    const library = scope === "user" ? box.configDir : join(box.cwd, ".skillshelf");
    writeTree(join(library, "skills", "pdf"), {
      "SKILL.md": "---\nname: pdf\ndescription: Fill and read PDF forms.\n---\nBody.\n",
    });
    const linked = await box.run(
      "link",
      "pdf",
      "--agent",
      agent.id,
      `--${scope}`,
      "--yes",
      "--json",
    );
    if (agentSkillFolder(agent, scope) === undefined) {
      // Eve has no user folder: refused by its code, nothing written
      expect(linked.status).toBe(1);
      expect(codesOf(linked)).toContain("link_agent_unsupported");
      return;
    }
    expect(linked.status, linked.stdout).toBe(0);
    const explained = JSON.parse(
      (await box.run("explain", "--agent", agent.id, "--json")).stdout,
    ) as {
      agents: { loaded: { name: string; path: string }[] }[];
    };
    const loaded = explained.agents[0]?.loaded ?? [];
    const pdf = loaded.find((skill) => skill.name === "pdf");
    // through the link, not the library itself
    expect(pdf?.path).toBeDefined();
    expect(pdf?.path).not.toContain(library);
    // a copy for an agent that does not load a symlinked folder, a symlink for the rest
    const folder = dirname(pdf?.path ?? "");
    expect(lstatSync(folder).isSymbolicLink()).toBe(!agentNeedsCopy(agent));
  });
});

describe("link --all-agents over the whole agent table (issue 25, item 3)", () => {
  it("leaves every agent's folder holding the skill in the form that agent reads", async () => {
    const box = changeSandbox();
    execFileSync("mkdir", ["-p", join(box.cwd, ".git")]);
    writeTree(join(box.cwd, ".skillshelf", "skills", "pdf"), {
      "SKILL.md": "---\nname: pdf\ndescription: Fill and read PDF forms.\n---\nBody.\n",
    });
    const folders = new Map<string, (typeof AGENTS)[number][]>();
    for (const agent of AGENTS) {
      const folder = agentSkillFolder(agent, "project");
      if (folder !== undefined) folders.set(folder, [...(folders.get(folder) ?? []), agent]);
    }
    for (const folder of folders.keys()) execFileSync("mkdir", ["-p", join(box.cwd, folder)]);
    const linked = await box.run("link", "pdf", "--all-agents", "--project", "--yes", "--json");
    expect(linked.status, linked.stdout).toBe(0);
    // one link per folder, however many agents read it
    const { plan } = JSON.parse(linked.stdout) as { plan: { steps: { key: string }[] } };
    expect(plan.steps.map((step) => step.key).sort()).toEqual(
      [...folders.keys()].map((folder) => `${folder}/pdf`).sort(),
    );
    for (const [folder, readers] of folders) {
      const path = join(box.cwd, folder, "pdf");
      expect(existsSync(join(path, "SKILL.md")), folder).toBe(true);
      // a copy where any agent reading it needs one, else a symlink
      expect(lstatSync(path).isSymbolicLink(), folder).toBe(!readers.some(agentNeedsCopy));
    }
    const explained = JSON.parse((await box.run("explain", "--all", "--json")).stdout) as {
      agents: { agent: string; loaded: { name: string }[] }[];
    };
    for (const agent of explained.agents)
      expect(
        agent.loaded.map((skill) => skill.name),
        agent.agent,
      ).toContain("pdf");
  });
});
