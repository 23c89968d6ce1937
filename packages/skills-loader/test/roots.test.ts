import { join } from "node:path";
import { AGENTS, resolveEnvironment } from "@skillshelf/core";
import {
  defaultSkillRoots,
  hostRoots,
  loadSkills,
  modelVisibleSkills,
  packageRoot,
} from "@skillshelf/skills-loader";
import { link, skillFile, testdir, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("defaultSkillRoots", () => {
  it("lists every agent folder and both libraries, lowest precedence first", () => {
    const all = defaultSkillRoots(resolveEnvironment({ cwd: "/p", home: "/h", env: {} }));
    // each folder once per scope, however many agents read it
    const keys = all.map((root) => `${root.scope}:${root.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(all.map((root) => root.source)).toEqual(
      expect.arrayContaining(["cursor", "roo", "droid"]),
    );
    // the first six agents of the table and both libraries, in precedence order
    const first = new Set([...AGENTS.slice(0, 6).map((agent) => agent.id), "skillshelf"]);
    const roots = all.filter((root) => first.has(root.source));
    expect(
      roots.map((root) => [
        root.path,
        root.scope,
        root.source,
        root.origin,
        root.precedence,
        root.trust,
        root.containment,
      ]),
    ).toEqual([
      ["/h/.claude/skills", "user", "claude-code", "claude-code-user", 20, "untrusted", "/h"],
      ["/h/.codex/skills", "user", "codex", "codex-user", 20, "untrusted", "/h"],
      ["/h/.config/opencode/skills", "user", "opencode", "opencode-user", 20, "untrusted", "/h"],
      ["/h/.copilot/skills", "user", "copilot", "copilot-user", 20, "untrusted", "/h"],
      ["/h/.pi/agent/skills", "user", "pi", "pi-user", 20, "untrusted", "/h"],
      ["/h/.agents/skills", "user", "agents", "agents-user", 20, "untrusted", "/h"],
      ["/h/.config/skillshelf/skills", "user", "skillshelf", "user", 30, "trusted", "/h"],
      ["/p/.claude/skills", "project", "claude-code", "claude-code-project", 40, "untrusted", "/p"],
      ["/p/.opencode/skills", "project", "opencode", "opencode-project", 40, "untrusted", "/p"],
      ["/p/.github/skills", "project", "copilot", "copilot-project", 40, "untrusted", "/p"],
      ["/p/.pi/skills", "project", "pi", "pi-project", 40, "untrusted", "/p"],
      ["/p/.agents/skills", "project", "agents", "agents-project", 40, "untrusted", "/p"],
      ["/p/.skillshelf/skills", "project", "skillshelf", "project", 50, "trusted", "/p"],
    ]);
  });

  it("follows SKILLSHELF_HOME and keeps one root per folder when cwd is home", () => {
    const roots = defaultSkillRoots(
      resolveEnvironment({ cwd: "/h", home: "/h", env: { SKILLSHELF_HOME: "/shelf" } }),
    );
    expect(
      roots.filter((root) => root.path === "/h/.claude/skills").map((root) => root.scope),
    ).toEqual(["project"]);
    expect(roots.find((root) => root.origin === "user")?.path).toBe("/shelf/skills");
  });
});

describe("trust and precedence on a real machine layout", () => {
  const environment = testEnvironment({
    home: {
      ".config/skillshelf/skills/review/SKILL.md": skillFile("review", "User library review."),
      ".config/skillshelf/skills/deploy/SKILL.md": skillFile("deploy", "User library deploy."),
      ".claude/skills/deploy/SKILL.md": skillFile("deploy", "Claude copy of deploy."),
      ".claude/skills/claude-only/SKILL.md": skillFile("claude-only", "Only in Claude's folder."),
      ".agents/skills/manual/SKILL.md": skillFile(
        "manual",
        "Not for models.",
        "disable-model-invocation: true\n",
      ),
    },
    project: {
      ".skillshelf/skills/deploy/SKILL.md": skillFile("deploy", "Project deploy."),
      ".github/skills/review/SKILL.md": skillFile("review", "Copilot project review."),
    },
  });

  it("lets trusted and owned copies win and keeps other agents' folders discovery-only", () => {
    const result = loadSkills(environment);
    expect(result.items.map((skill) => [skill.name, skill.origin, skill.trusted])).toEqual([
      ["claude-only", "claude-code-user", false],
      ["deploy", "project", true],
      ["manual", "agents-user", false],
      ["review", "user", true],
    ]);
    expect(modelVisibleSkills(result.items).map((skill) => skill.name)).toEqual([
      "deploy",
      "review",
    ]);
    const deploy = result.collisions.find((group) => group.name === "deploy");
    expect(deploy?.losers.map((loss) => [loss.item.origin, loss.reason])).toEqual([
      ["user", "precedence"],
      ["claude-code-user", "trusted"],
    ]);
    const review = result.collisions.find((group) => group.name === "review");
    expect(review?.losers.map((loss) => [loss.item.origin, loss.reason])).toEqual([
      ["copilot-project", "trusted"],
    ]);
  });

  it("adds explicit paths above everything and drops defaults with disableDiscovery", () => {
    const extra = testdir({ "deploy/SKILL.md": skillFile("deploy", "Explicit deploy.") });
    const withExplicit = loadSkills({
      ...environment,
      explicitSkillPaths: [join(extra, "deploy")],
    });
    expect(withExplicit.items.find((skill) => skill.name === "deploy")?.scope).toBe("cli");
    const only = loadSkills({
      ...environment,
      disableDiscovery: true,
      explicitSkillPaths: [join(extra, "deploy")],
    });
    expect(only.items.map((skill) => skill.name)).toEqual(["deploy"]);
  });
});

describe("package roots", () => {
  it("loads a foreign package's skills as untrusted unless trustImports is set", () => {
    const home = testdir({
      "packages/imported/skills/helper/SKILL.md": skillFile("helper", "From a Claude plugin."),
    });
    const root = packageRoot({
      id: "imported",
      scope: "user",
      path: join(home, "packages/imported/skills"),
      packageDir: join(home, "packages/imported"),
      trust: "foreign",
    });
    const base = { cwd: "/nonexistent", home, env: {}, roots: [root] };
    expect(
      loadSkills(base).items.map((skill) => [skill.name, skill.origin, skill.trusted]),
    ).toEqual([["helper", "package:user:imported", false]]);
    expect(loadSkills({ ...base, trustImports: true }).items[0]?.trusted).toBe(true);
  });

  it("admits an explicit path inside a package only under a package root being loaded, with its trust", () => {
    const home = testdir({
      "packages/on/skills/a/SKILL.md": skillFile("a", "In an enabled package."),
      "packages/off/skills/b/SKILL.md": skillFile("b", "In a disabled package."),
    });
    const enabled = packageRoot({
      id: "on",
      scope: "user",
      path: join(home, "packages/on/skills"),
      packageDir: join(home, "packages/on"),
      trust: "foreign",
    });
    const result = loadSkills({
      cwd: home,
      home,
      env: {},
      roots: [enabled],
      packageDirs: [join(home, "packages/on"), join(home, "packages/off")],
      explicitSkillPaths: ["packages/on/skills/a", "packages/off/skills/b"],
    });
    expect(result.items.map((skill) => [skill.name, skill.scope, skill.trusted])).toEqual([
      ["a", "cli", false],
    ]);
    expect(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ["package_inactive", join(home, "packages/off/skills/b")],
      ["duplicate_file", join(home, "packages/on/skills/a/SKILL.md")],
    ]);
  });

  it("reads a host that is no agent of the table from its own folders, trusted (issue 57, item 4)", () => {
    const { home, cwd } = testEnvironment({
      home: { ".acme/skills/mine/SKILL.md": skillFile("mine", "The host's own.") },
      project: { ".acme/skills/ours/SKILL.md": skillFile("ours", "The project's own.") },
    });
    const environment = resolveEnvironment({ home, cwd, env: {} });
    const host = { name: "acme", folders: { user: ".acme/skills", project: ".acme/skills" } };
    const { items } = loadSkills({
      ...environment,
      roots: [...defaultSkillRoots(environment), ...hostRoots(environment, host)],
    });
    expect(items.map((skill) => [skill.name, skill.source, skill.scope, skill.trusted])).toEqual([
      ["mine", "acme", "user", true],
      ["ours", "acme", "project", true],
    ]);
  });

  it("refuses a user skill linked from outside home, naming the host's way to allow it (issue 57, item 4)", () => {
    const outside = testdir({ "x/SKILL.md": skillFile("x", "Outside.") });
    const home = testdir({ ".claude/skills/x": link(join(outside, "x")) });
    const refused = loadSkills({ cwd: "/nonexistent", home, env: {}, host: "claude-code" });
    const escaped = refused.diagnostics.find((diagnostic) => diagnostic.code === "symlink_escape");
    expect(escaped?.path).toBe(join(home, ".claude/skills/x"));
    expect(escaped?.hint).toContain("linkTargets");
    const root = {
      path: join(home, ".claude/skills"),
      scope: "user" as const,
      source: "claude-code",
      origin: "claude-code-user",
      precedence: 20,
      trust: "trusted" as const,
      containment: home,
      linkTargets: [outside],
    };
    const allowed = loadSkills({ cwd: "/nonexistent", home, env: {}, roots: [root] });
    expect(allowed.items.map((skill) => skill.name)).toEqual(["x"]);
  });

  it("refuses a link out of the package folder", () => {
    const outside = testdir({ "x/SKILL.md": skillFile("x", "Outside.") });
    const home = testdir({ "packages/p/skills/x": link(join(outside, "x")) });
    const root = packageRoot({
      id: "p",
      scope: "user",
      path: join(home, "packages/p/skills"),
      packageDir: join(home, "packages/p"),
      trust: "trusted",
    });
    const result = loadSkills({ cwd: "/nonexistent", home, env: {}, roots: [root] });
    expect(result.items).toEqual([]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["symlink_escape"]);
  });
});
