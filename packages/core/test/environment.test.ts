import { join } from "node:path";
import {
  defaultResourceRoots,
  findProject,
  projectLibraryDir,
  resolveEnvironment,
  userLibraryDir,
} from "@skillshelf/core";
import { type Tree, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("resolveEnvironment", () => {
  const home = "/home/ada";
  const cwd = "/work/project";

  it.each([
    // env, expected configDir
    [{}, "/home/ada/.config/skillshelf"],
    [{ XDG_CONFIG_HOME: "/xdg" }, "/xdg/skillshelf"],
    [{ XDG_CONFIG_HOME: "relative/xdg" }, "/home/ada/.config/skillshelf"],
    [{ XDG_CONFIG_HOME: "  " }, "/home/ada/.config/skillshelf"],
    [{ SKILLSHELF_HOME: "/shelf", XDG_CONFIG_HOME: "/xdg" }, "/shelf"],
    [{ SKILLSHELF_HOME: "shelf" }, "/work/project/shelf"],
    [{ SKILLSHELF_HOME: "" }, "/home/ada/.config/skillshelf"],
  ])("configDir for %j is %s", (env, expected) => {
    expect(resolveEnvironment({ cwd, home, env }).configDir).toBe(expected);
  });

  it("takes HOME from the injected env when no home is given", () => {
    expect(resolveEnvironment({ cwd, env: { HOME: "/home/grace" } }).home).toBe("/home/grace");
  });

  it("prefers an explicit configDir over every variable", () => {
    const environment = resolveEnvironment({
      cwd,
      home,
      configDir: "/explicit",
      env: { SKILLSHELF_HOME: "/shelf" },
    });
    expect(environment.configDir).toBe("/explicit");
    expect(userLibraryDir(environment)).toBe("/explicit");
  });

  it("resolves a relative cwd against the process's folder", () => {
    const environment = resolveEnvironment({ cwd: "relative", home, env: {} });
    expect(environment.cwd).toBe(join(process.cwd(), "relative"));
  });
});

describe("the project rule (DESIGN §2)", () => {
  const home = "/home/ada";
  const deep = (root: string) => join(root, "src", "a", "b");

  it.each<[string, Tree, string]>([
    [
      "the nearest folder holding .skillshelf/",
      { ".skillshelf/skills": null, "src/a/b": null },
      "",
    ],
    [
      "a nearer .skillshelf/ over a farther one",
      { ".skillshelf": null, "src/.skillshelf": null, "src/a/b": null },
      "src",
    ],
    [
      "the git work tree's root when there is no .skillshelf/",
      { ".git/HEAD": "x", "src/a/b": null },
      "",
    ],
    ["a git worktree's .git file", { ".git": "gitdir: /elsewhere", "src/a/b": null }, ""],
    [
      "the git root, not a .skillshelf/ above it",
      { ".skillshelf": null, "repo/.git/HEAD": "x", "repo/src/a/b": null },
      "repo",
    ],
    [
      "a .skillshelf file is not a library",
      { ".skillshelf": "not a folder", "src/a/b": null },
      "src/a/b",
    ],
  ])("is %s", (_name, tree, expected) => {
    const root = testdir(tree);
    const cwd = tree["repo/src/a/b"] === null ? join(root, "repo", "src", "a", "b") : deep(root);
    const environment = resolveEnvironment({ cwd, home, env: {} });
    expect(environment.project).toBe(join(root, expected));
    expect(projectLibraryDir(environment)).toBe(join(root, expected, ".skillshelf"));
    expect(findProject(cwd)).toBe(environment.project);
  });

  it("reads cwd-to-root agents' project folders from every level, the nearer one higher", () => {
    const root = testdir({ ".git/HEAD": "x", "src/a": null });
    const environment = resolveEnvironment({ cwd: join(root, "src", "a"), home, env: {} });
    const agents = defaultResourceRoots(environment, "skills", [
      "userSkillRoot",
      "projectSkillRoot",
    ])
      .filter((candidate) => candidate.source === "agents" && candidate.scope === "project")
      .map(({ path, precedence, origin, containment }) => ({
        path,
        precedence,
        origin,
        containment,
      }));
    expect(agents).toEqual([
      {
        path: join(root, ".agents/skills"),
        precedence: 40,
        origin: "agents-project",
        containment: root,
      },
      {
        path: join(root, "src/.agents/skills"),
        precedence: 41,
        origin: "agents-project:src",
        containment: root,
      },
      {
        path: join(root, "src/a/.agents/skills"),
        precedence: 42,
        origin: "agents-project:src/a",
        containment: root,
      },
    ]);
    const claude = defaultResourceRoots(environment, "skills", [
      "userSkillRoot",
      "projectSkillRoot",
    ])
      .filter((candidate) => candidate.source === "claude-code" && candidate.scope === "project")
      .map((candidate) => candidate.path);
    expect(claude).toEqual([join(root, ".claude/skills")]);
  });
});
