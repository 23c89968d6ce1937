import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { AGENTS, agentNeedsCopy, agentSkillFolder } from "@skillshelf/core";
import {
  applyLifecycle,
  applyLinks,
  linksBehindLock,
  planLinks,
  planUnlinks,
  restoreFromLock,
  restoreLinks,
} from "@skillshelf/lifecycle";
import { explainAgents } from "@skillshelf/skills-loader";
import { inspectLinks, readLockFile } from "@skillshelf/store";
import { skillFile, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { environment, installFolder } from "./_lifecycle.js";

function projectSkill(env: ReturnType<typeof environment>, name: string): string {
  const dir = join(env.project, ".skillshelf", "skills", name);
  writeTree(dir, { "SKILL.md": skillFile(name, `The ${name} skill.`) });
  return dir;
}

describe("planLinks and applyLinks", () => {
  it("links a project skill into the named agents, then unlinks it", () => {
    const env = environment();
    projectSkill(env, "pdf");
    const plan = planLinks({
      environment: env,
      scope: "project",
      names: ["pdf"],
      agents: ["claude-code", "agents"],
    });
    expect(plan.applicable).toBe(true);
    expect(plan.steps.map((step) => [step.agent, step.key, step.inPlace])).toEqual([
      ["claude-code", ".claude/skills/pdf", false],
      ["agents", ".agents/skills/pdf", false],
    ]);
    // a plan writes nothing
    expect(existsSync(join(env.project, ".claude"))).toBe(false);
    expect(applyLinks(plan).status).toBe("committed");
    expect(readlinkSync(join(env.project, ".claude", "skills", "pdf"))).toBe(
      "../../.skillshelf/skills/pdf",
    );
    expect(
      planLinks({ environment: env, scope: "project", names: ["pdf"], agents: ["agents"] }).steps[0]
        ?.inPlace,
    ).toBe(true);
    const unlink = planUnlinks({
      environment: env,
      scope: "project",
      names: ["pdf"],
      agents: ["agents"],
    });
    expect(unlink.steps.map((step) => step.key)).toEqual([".agents/skills/pdf"]);
    expect(applyLinks(unlink).status).toBe("committed");
    expect(existsSync(join(env.project, ".agents", "skills", "pdf"))).toBe(false);
    expect(existsSync(join(env.project, ".claude", "skills", "pdf"))).toBe(true);
  });

  it("makes one link for agents that read one folder, naming the others it serves", () => {
    const env = environment();
    projectSkill(env, "pdf");
    const plan = planLinks({
      environment: env,
      scope: "project",
      names: ["pdf"],
      // Cursor and Cline both read .agents/skills and load only a copied folder; Amp reads it too
      agents: ["cursor", "claude-code", "cline", "amp"],
    });
    expect(plan.steps.map((step) => [step.agent, step.alsoFor, step.key, step.copy])).toEqual([
      ["cursor", ["cline", "amp"], ".agents/skills/pdf", true],
      ["claude-code", undefined, ".claude/skills/pdf", false],
    ]);
    expect(applyLinks(plan).status).toBe("committed");
    expect(lstatSync(join(env.project, ".agents", "skills", "pdf")).isDirectory()).toBe(true);
    // taking it away for one of them takes it from every agent reading that folder, named so
    const unlinkFor = (agents: string[]) =>
      planUnlinks({ environment: env, scope: "project", names: ["pdf"], agents });
    expect(unlinkFor(["windsurf"]).steps.map((step) => step.refusal?.code)).toEqual([
      "link_unknown",
    ]);
    const unlink = unlinkFor(["cline"]);
    expect(unlink.steps.map((step) => [step.agent, step.alsoFor, step.key])).toEqual([
      ["cursor", ["cline"], ".agents/skills/pdf"],
    ]);
    expect(applyLinks(unlink).status).toBe("committed");
    expect(existsSync(join(env.project, ".agents", "skills", "pdf"))).toBe(false);
    expect(existsSync(join(env.project, ".claude", "skills", "pdf"))).toBe(true);
  });

  it("links an installed package's skill by name, into the agents whose folders exist with all", async () => {
    const env = environment();
    await installFolder(env, "user", { id: "tools", skills: ["docx"] });
    mkdirSync(join(env.home, ".claude", "skills"), { recursive: true });
    mkdirSync(join(env.home, ".pi", "agent", "skills"), { recursive: true });
    // an agent folder that is a symlink is left out, with a warning (Codex reads it too)
    mkdirSync(join(env.home, ".agents"), { recursive: true });
    symlinkSync(join(env.home, ".claude", "skills"), join(env.home, ".agents", "skills"));
    const plan = planLinks({ environment: env, scope: "user", names: ["docx"], agents: "all" });
    expect(plan.steps.map((step) => [step.agent, step.package])).toEqual([
      ["claude-code", "tools"],
      ["pi", "tools"],
    ]);
    // one warning for the folder, naming every agent that reads it
    expect(plan.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["link_unsafe", join(env.home, ".agents", "skills")],
    ]);
    expect(plan.diagnostics[0]?.details?.agents).toEqual(
      expect.arrayContaining(["codex", "agents", "cline", "zed"]),
    );
    expect(applyLinks(plan).status).toBe("committed");
    expect(readlinkSync(join(env.home, ".claude", "skills", "docx"))).toBe(
      "../../.config/skillshelf/packages/tools/skills/docx",
    );
  });

  it("refuses in the plan a name it cannot find and a link in the way of a user's folder", () => {
    const env = environment();
    projectSkill(env, "pdf");
    writeTree(join(env.project, ".claude", "skills", "pdf"), { "SKILL.md": "mine\n" });
    const plan = planLinks({
      environment: env,
      scope: "project",
      names: ["pdf", "nowhere"],
      agents: ["claude-code"],
    });
    expect(plan.applicable).toBe(false);
    expect(plan.steps.map((step) => step.refusal?.code)).toEqual([
      "link_conflict",
      "link_source_unknown",
    ]);
    expect(plan.steps[0]?.path).toBe(join(env.project, ".claude", "skills", "pdf"));
    expect(applyLinks(plan).status).toBe("refused");
    expect(
      planUnlinks({ environment: env, scope: "project", names: ["pdf"] }).steps[0]?.refusal?.code,
    ).toBe("link_unknown");
  });
});

describe("restoreLinks", () => {
  it("recreates a fresh clone's links from its lock after the packages are restored", async () => {
    const env = environment();
    await installFolder(env, "project", { id: "tools", skills: ["docx"] });
    applyLinks(
      planLinks({ environment: env, scope: "project", names: ["docx"], agents: ["claude-code"] }),
    );
    const lock = readLockFile(env, "project");
    expect(lock.ok && Object.keys(lock.value.value.links ?? {})).toEqual([".claude/skills/docx"]);
    // a fresh clone: the lock is committed, the copies, the state and the links are not
    rmSync(join(env.project, ".skillshelf", "packages"), { recursive: true });
    rmSync(join(env.project, ".claude"), { recursive: true });
    const restore = await restoreFromLock({ environment: env, scope: "project" });
    expect((await applyLifecycle(restore)).committed).toBe(1);
    expect(linksBehindLock(env, "project")).toEqual([".claude/skills/docx"]);
    expect(restoreLinks(env, "project")?.status).toBe("committed");
    expect(linksBehindLock(env, "project")).toEqual([]);
    expect(readlinkSync(join(env.project, ".claude", "skills", "docx"))).toBe(
      "../../.skillshelf/packages/tools/skills/docx",
    );
    expect(inspectLinks(env, "project").faults).toEqual([]);
    // and again: nothing to do
    expect(restoreLinks(env, "project")).toBeUndefined();
  });
});

describe("a link goes where each agent reads, in the form it reads (issue 23 item 1, issue 25 item 3)", () => {
  it.each(
    AGENTS.flatMap((agent) =>
      (["user", "project"] as const).map((scope) => [agent, scope] as const),
    ),
  )("$0.id, %s scope: the agent's own view loads the linked skill", (agent, scope) => {
    const env = environment();
    mkdirSync(join(env.project, ".git"), { recursive: true });
    const library = scope === "user" ? env.configDir : join(env.project, ".skillshelf");
    writeTree(join(library, "skills", "pdf"), { "SKILL.md": skillFile("pdf", "Fill PDF forms.") });
    const plan = planLinks({ environment: env, scope, names: ["pdf"], agents: [agent.id] });
    if (agentSkillFolder(agent, scope) === undefined) {
      // Eve has no user folder: refused by its code, nothing written
      expect(plan.steps.map((step) => step.refusal?.code)).toEqual(["link_agent_unsupported"]);
      return;
    }
    expect(applyLinks(plan).status).toBe("committed");
    const [explained] = explainAgents({ ...env, agent: agent.id });
    const pdf = explained?.loaded.find((skill) => skill.name === "pdf");
    // through the link, not the library itself
    expect(pdf?.path).toBeDefined();
    expect(pdf?.path).not.toContain(library);
    // a copy for an agent that does not load a symlinked folder, a symlink for the rest
    expect(lstatSync(dirname(pdf?.path ?? "")).isSymbolicLink()).toBe(!agentNeedsCopy(agent));
  });
});
