import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Environment } from "@skillshelf/core";
import {
  inspectLinks,
  lockFromState,
  lockRoot,
  readLockFile,
  readScopeState,
} from "@skillshelf/store";
import {
  type LinkRequest,
  linkResources,
  recoverScope,
  removePackage,
  unlinkResources,
} from "@skillshelf/store/writers";
import { skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runStoreChild } from "./_child.js";
import { errorOf, facts, install, storeEnvironment } from "./_store.js";

/** A loose skill in the user library: `<configDir>/skills/<name>`. */
function looseSkill(environment: Environment, name: string): string {
  const dir = join(environment.configDir, "skills", name);
  writeTree(dir, { "SKILL.md": skillFile(name, `The ${name} skill.`) });
  return dir;
}

function link(environment: Environment, links: LinkRequest[], scope: "user" | "project" = "user") {
  return linkResources({ environment, scope, links });
}

function expectLockMatchesState(environment: Environment, scope: "user" | "project" = "user") {
  const state = readScopeState(environment, scope);
  const lock = readLockFile(environment, scope);
  if (!state.ok || !lock.ok) throw new Error("state or lock unreadable");
  expect(lock.value.value).toEqual(lockFromState(state.value.state, lockRoot(environment, scope)));
}

const faults = (environment: Environment, scope: "user" | "project" = "user") =>
  inspectLinks(environment, scope).faults.map((fault) => [fault.code, fault.path]);

describe("linkResources and unlinkResources", () => {
  it("links a loose skill with a relative symlink, records it in state and lock, and takes it away", () => {
    const environment = storeEnvironment();
    const target = looseSkill(environment, "pdf");
    const result = link(environment, [
      { agent: "claude-code", kind: "skill", target, name: "pdf" },
    ]);
    expect(result.links).toEqual([
      { path: ".claude/skills/pdf", agent: "claude-code", status: "linked" },
    ]);
    const path = join(environment.home, ".claude", "skills", "pdf");
    expect(readlinkSync(path)).toBe("../../.config/skillshelf/skills/pdf");
    expect(readFileSync(join(path, "SKILL.md"), "utf8")).toContain("name: pdf");
    const state = readScopeState(environment, "user");
    if (!state.ok) throw new Error("state unreadable");
    expect(state.value.state.links?.[".claude/skills/pdf"]).toMatchObject({
      agent: "claude-code",
      kind: "skill",
      target: "skills/pdf",
      mode: "symlink",
    });
    expectLockMatchesState(environment);
    expect(faults(environment)).toEqual([]);
    // linking again changes nothing
    expect(
      link(environment, [{ agent: "claude-code", kind: "skill", target, name: "pdf" }]).links[0]
        ?.status,
    ).toBe("unchanged");
    unlinkResources({ environment, scope: "user", paths: [".claude/skills/pdf"] });
    expect(existsSync(path)).toBe(false);
    expect(existsSync(target)).toBe(true);
    const after = readLockFile(environment, "user");
    expect(after.ok && after.value.value.links).toBeUndefined();
  });

  it("writes a copy with copy: true, and inspectLinks reports it edited, repointed and missing", () => {
    const environment = storeEnvironment();
    const target = looseSkill(environment, "pdf");
    const other = looseSkill(environment, "docx");
    const result = link(environment, [
      { agent: "opencode", kind: "skill", target, name: "pdf", copy: true },
      { agent: "agents", kind: "skill", target, name: "pdf" },
      { agent: "pi", kind: "skill", target, name: "pdf" },
    ]);
    expect(result.links.map((outcome) => outcome.status)).toEqual(["copied", "linked", "linked"]);
    const copy = join(environment.home, ".config", "opencode", "skills", "pdf");
    expect(lstatSync(copy).isDirectory()).toBe(true);
    appendFileSync(join(copy, "SKILL.md"), "edited\n");
    rmSync(join(environment.home, ".agents", "skills", "pdf"));
    const repointed = join(environment.home, ".pi", "agent", "skills", "pdf");
    rmSync(repointed);
    symlinkSync(other, repointed);
    // sorted by path
    expect(faults(environment)).toEqual([
      ["link_missing", join(environment.home, ".agents", "skills", "pdf")],
      ["link_changed", copy],
      ["link_repointed", repointed],
    ]);
    // an edited copy and a re-pointed link are left as they are
    expect(
      errorOf(() =>
        unlinkResources({ environment, scope: "user", paths: [".config/opencode/skills/pdf"] }),
      )?.code,
    ).toBe("link_changed");
    expect(existsSync(copy)).toBe(true);
    // a missing one is only forgotten
    unlinkResources({ environment, scope: "user", paths: [".agents/skills/pdf"] });
    expect(faults(environment).map(([code]) => code)).toEqual(["link_changed", "link_repointed"]);
  });

  it("never writes over what it did not make, and never into a symlinked agent folder", () => {
    const environment = storeEnvironment();
    const target = looseSkill(environment, "pdf");
    const own = join(environment.home, ".claude", "skills", "pdf");
    writeTree(own, { "SKILL.md": "my own\n" });
    const conflict = errorOf(() =>
      link(environment, [{ agent: "claude-code", kind: "skill", target, name: "pdf" }]),
    );
    expect(conflict).toMatchObject({ code: "link_conflict", details: { found: "folder" } });
    expect(readFileSync(join(own, "SKILL.md"), "utf8")).toBe("my own\n");
    // a dangling symlink in the way is a conflict too
    const dangling = join(environment.home, ".agents", "skills", "pdf");
    mkdirSync(join(dangling, ".."), { recursive: true });
    symlinkSync("../nowhere", dangling);
    expect(
      errorOf(() => link(environment, [{ agent: "agents", kind: "skill", target, name: "pdf" }])),
    ).toMatchObject({
      code: "link_conflict",
      details: { found: "symlink", to: "../nowhere" },
    });
    // an agent folder that is a symlink to somewhere else
    const elsewhere = testdir();
    mkdirSync(join(environment.home, ".config", "opencode"), { recursive: true });
    symlinkSync(elsewhere, join(environment.home, ".config", "opencode", "skills"));
    expect(
      errorOf(() => link(environment, [{ agent: "opencode", kind: "skill", target, name: "pdf" }]))
        ?.code,
    ).toBe("link_unsafe");
    expect(existsSync(join(elsewhere, "pdf"))).toBe(false);
    // all or none: nothing was recorded
    const state = readScopeState(environment, "user");
    expect(state.ok && state.value.state.links).toBeUndefined();
  });

  it("refuses a target outside the scope's library, and an agent with no folder of that kind", () => {
    const environment = storeEnvironment();
    const outside = testdir({ "SKILL.md": skillFile("pdf", "Outside.") });
    expect(
      errorOf(() =>
        link(environment, [{ agent: "claude-code", kind: "skill", target: outside, name: "pdf" }]),
      )?.code,
    ).toBe("link_target_invalid");
    // a path inside the library that escapes it through a symlink
    mkdirSync(join(environment.configDir, "skills"), { recursive: true });
    symlinkSync(outside, join(environment.configDir, "skills", "sneaky"));
    const sneaky = join(environment.configDir, "skills", "sneaky");
    expect(
      errorOf(() =>
        link(environment, [
          { agent: "claude-code", kind: "skill", target: sneaky, name: "sneaky" },
        ]),
      )?.code,
    ).toBe("link_target_invalid");
    const prompt = join(environment.configDir, "prompts", "review.md");
    writeTree(join(environment.configDir, "prompts"), { "review.md": "Review.\n" });
    expect(
      errorOf(() =>
        link(environment, [
          { agent: "copilot", kind: "prompt", target: prompt, name: "review.md" },
        ]),
      )?.code,
    ).toBe("link_agent_unsupported");
    expect(existsSync(join(environment.home, ".claude"))).toBe(false);
  });

  it("links a prompt template into an agent's prompt folder, keeping its subfolder", () => {
    const environment = storeEnvironment();
    writeTree(join(environment.configDir, "prompts"), { "git/commit.md": "Commit $1.\n" });
    const target = join(environment.configDir, "prompts", "git", "commit.md");
    link(environment, [{ agent: "codex", kind: "prompt", target, name: "git/commit.md" }]);
    const path = join(environment.home, ".codex", "prompts", "git", "commit.md");
    expect(readlinkSync(path)).toBe("../../../.config/skillshelf/prompts/git/commit.md");
    expect(readFileSync(path, "utf8")).toBe("Commit $1.\n");
    expect(faults(environment)).toEqual([]);
  });

  it("adopts an identical link left by an interrupted run", () => {
    const environment = storeEnvironment();
    const target = looseSkill(environment, "pdf");
    const path = join(environment.home, ".claude", "skills", "pdf");
    mkdirSync(join(path, ".."), { recursive: true });
    symlinkSync("../../.config/skillshelf/skills/pdf", path);
    expect(
      link(environment, [{ agent: "claude-code", kind: "skill", target, name: "pdf" }]).links[0]
        ?.status,
    ).toBe("linked");
    expect(faults(environment)).toEqual([]);
  });

  it("links in the project scope relative to the project folder", () => {
    const environment = storeEnvironment();
    const dir = join(environment.project, ".skillshelf", "skills", "pdf");
    writeTree(dir, { "SKILL.md": skillFile("pdf", "The pdf skill.") });
    link(environment, [{ agent: "copilot", kind: "skill", target: dir, name: "pdf" }], "project");
    expect(readlinkSync(join(environment.project, ".github", "skills", "pdf"))).toBe(
      "../../.skillshelf/skills/pdf",
    );
    expectLockMatchesState(environment, "project");
  });
});

describe("links to an installed copy", () => {
  function linkedPackage(environment: Environment) {
    install(environment, "user", { id: "tools", version: "1.0.0", skills: ["pdf"] });
    const target = join(environment.configDir, "packages", "tools", "skills", "pdf");
    link(environment, [
      { agent: "claude-code", kind: "skill", target, name: "pdf", package: "tools" },
      { agent: "codex", kind: "skill", target, name: "pdf", package: "tools", copy: true },
    ]);
    return target;
  }

  it("follow an update: the symlink keeps pointing at the live tree and a copy is refreshed", () => {
    const environment = storeEnvironment();
    linkedPackage(environment);
    install(environment, "user", {
      id: "tools",
      version: "2.0.0",
      skills: ["pdf"],
      files: { "skills/pdf/SKILL.md": skillFile("pdf", "The pdf skill, version two.") },
    });
    const claude = join(environment.home, ".claude", "skills", "pdf", "SKILL.md");
    const codex = join(environment.home, ".agents", "skills", "pdf", "SKILL.md");
    expect(readFileSync(claude, "utf8")).toContain("version two");
    expect(readFileSync(codex, "utf8")).toContain("version two");
    expect(faults(environment)).toEqual([]);
    expectLockMatchesState(environment);
  });

  it("are dropped when an update no longer has the skill, and taken away with the copy", () => {
    const environment = storeEnvironment();
    linkedPackage(environment);
    install(environment, "user", { id: "tools", version: "2.0.0", skills: ["docx"] });
    expect(existsSync(join(environment.home, ".claude", "skills", "pdf"))).toBe(false);
    expect(existsSync(join(environment.home, ".agents", "skills", "pdf"))).toBe(false);
    const state = readScopeState(environment, "user");
    expect(state.ok && state.value.state.links).toBeUndefined();

    const again = storeEnvironment();
    linkedPackage(again);
    removePackage({
      environment: again,
      scope: "user",
      id: "tools",
      reviewed: facts(again, "user", "tools"),
    });
    expect(existsSync(join(again.home, ".claude", "skills", "pdf"))).toBe(false);
    expect(existsSync(join(again.home, ".agents", "skills"))).toBe(true);
    expect(existsSync(join(again.home, ".agents", "skills", "pdf"))).toBe(false);
    expectLockMatchesState(again);
  });

  it("leave an edited copy in place when the package is removed, and say so", () => {
    const environment = storeEnvironment();
    linkedPackage(environment);
    const codex = join(environment.home, ".agents", "skills", "pdf", "SKILL.md");
    writeFileSync(codex, "mine now\n");
    const result = removePackage({
      environment,
      scope: "user",
      id: "tools",
      reviewed: facts(environment, "user", "tools"),
    });
    expect(result.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "link_changed",
      join(environment.home, ".agents", "skills", "pdf"),
    ]);
    expect(readFileSync(codex, "utf8")).toBe("mine now\n");
  });
});

describe("linkResources killed with SIGKILL", () => {
  it.each([
    ["linked", false],
    ["state-temporary-written", false],
    ["committed", true],
  ])("at %s leaves state and lock agreeing once settled (linked: %s)", async (point, recorded) => {
    const environment = storeEnvironment();
    const target = looseSkill(environment, "pdf");
    const links = [{ agent: "claude-code", kind: "skill", target, name: "pdf" }];
    const body = `const hook = (reached) => { if (reached === args.point) process.kill(process.pid, "SIGKILL"); };
store.linkResources(withFaultHook({ environment: args.environment, scope: "user", links: args.links }, hook));`;
    const run = await runStoreChild(body, { environment, links, point });
    expect(run.signal).toBe("SIGKILL");
    const settled = recoverScope({ environment, scope: "user" }).map((d) => d.code);
    if (recorded) expect(settled).toContain("lock_updated");
    const state = readScopeState(environment, "user");
    expect(state.ok && state.value.state.links?.[".claude/skills/pdf"] !== undefined).toBe(
      recorded,
    );
    expectLockMatchesState(environment);
    // a link made by a step that did not commit is taken away again: none is left unrecorded
    expect(existsSync(join(environment.home, ".claude", "skills", "pdf"))).toBe(recorded);
    expect(link(environment, links as LinkRequest[]).links[0]?.path).toBe(".claude/skills/pdf");
    expect(faults(environment)).toEqual([]);
  });
});

describe("a link to a skill package's own folder", () => {
  it("is refreshed by an update like a link inside a package", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "solo", kind: "skill", version: "1.0.0" });
    const target = join(environment.configDir, "packages", "solo");
    link(environment, [
      { agent: "codex", kind: "skill", target, name: "solo", package: "solo", copy: true },
    ]);
    install(environment, "user", {
      id: "solo",
      kind: "skill",
      version: "2.0.0",
      files: { "SKILL.md": skillFile("solo", "The solo skill, version two.") },
    });
    expect(
      readFileSync(join(environment.home, ".agents", "skills", "solo", "SKILL.md"), "utf8"),
    ).toContain("version two");
    expect(faults(environment)).toEqual([]);
  });
});
