import { join } from "node:path";
import { type LoadSkillsResult, loadSkills, type ResourceRoot } from "@skillshelf/skills-loader";
import { link, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

function rootAt(path: string, overrides: Partial<ResourceRoot> = {}): ResourceRoot {
  return {
    path,
    scope: "user",
    source: "skillshelf",
    origin: "user",
    precedence: 30,
    trust: "trusted",
    ...overrides,
  };
}

function load(roots: ResourceRoot[]): LoadSkillsResult {
  return loadSkills({ cwd: "/nonexistent", home: "/nonexistent", env: {}, roots });
}

const names = (result: LoadSkillsResult) => result.items.map((skill) => skill.name);
const relative = (root: string, result: LoadSkillsResult) =>
  result.items.map((skill) => skill.path.slice(root.length + 1));
const diagnosticsOf = (root: string, result: LoadSkillsResult) =>
  result.diagnostics.map((diagnostic) => [
    diagnostic.code,
    diagnostic.path?.slice(root.length + 1),
  ]);

describe("walk rules", () => {
  it("finds flat and nested-category skills, stops at a SKILL.md, and skips dot-folders and node_modules", () => {
    const root = testdir({
      "flat/SKILL.md": skillFile("flat", "Flat skill."),
      "category/nested/SKILL.md": skillFile("nested", "Nested in a category."),
      "category/deeper/still/SKILL.md": skillFile("still", "Two levels down."),
      "outer/SKILL.md": skillFile("outer", "Has a child."),
      "outer/inner/SKILL.md": skillFile("inner", "Never found: its parent is a skill."),
      ".hidden/SKILL.md": skillFile("hidden", "In a dot-folder."),
      "node_modules/dep/SKILL.md": skillFile("dep", "In node_modules."),
      "category/.git/SKILL.md": skillFile("git", "In .git."),
    });
    const result = load([rootAt(root)]);
    expect(relative(root, result).sort()).toEqual([
      "category/deeper/still/SKILL.md",
      "category/nested/SKILL.md",
      "flat/SKILL.md",
      "outer/SKILL.md",
    ]);
    // the dot folder at the root holds a skill, so its skipping is said; a deeper one (.git) is not
    expect(result.diagnostics.map((one) => [one.code, one.path])).toEqual([
      ["dot_folder_skipped", join(root, ".hidden")],
    ]);
  });

  it("reads loose markdown files only at the root's top level, and skips ones without frontmatter", () => {
    const root = testdir({
      "loose.md": skillFile("loose", "A loose skill file."),
      "README.md": "# About these skills\n",
      "category/also-loose.md": skillFile("also-loose", "Not at the top level."),
    });
    const result = load([rootAt(root)]);
    expect(names(result)).toEqual(["loose"]);
    expect(diagnosticsOf(root, result)).toEqual([["loose_file_skipped", "README.md"]]);
  });

  it("accepts SKILL.MD with a warning and prefers SKILL.md when both exist", () => {
    const root = testdir({
      "upper/SKILL.MD": skillFile("upper", "Upper-case extension."),
      "both/SKILL.md": skillFile("both", "The exact name."),
      "both/skill.md": skillFile("both-lower", "The lower-case copy."),
    });
    const result = load([rootAt(root)]);
    expect(relative(root, result)).toEqual(["both/SKILL.md", "upper/SKILL.MD"]);
    expect(diagnosticsOf(root, result)).toEqual([["skill_file_name", "upper/SKILL.MD"]]);
  });

  it("treats a root that is itself a skill folder as one skill", () => {
    const root = testdir({
      "SKILL.md": skillFile("self", "The root is the skill."),
      "sub/SKILL.md": skillFile("sub", "Hidden below."),
    });
    expect(names(load([rootAt(root)]))).toEqual(["self"]);
  });

  it("does not treat a missing root as an error", () => {
    expect(load([rootAt("/nonexistent/skills")])).toEqual({
      items: [],
      diagnostics: [],
      collisions: [],
    });
  });
});

describe("symlink containment", () => {
  it("follows links that stay inside the anchor and refuses folder and file links that leave it", () => {
    const outside = testdir({
      "evil/SKILL.md": skillFile("evil", "Outside."),
      "evil.md": skillFile("evil-file", "Outside file."),
    });
    const home = testdir({
      "dotfiles/shared/SKILL.md": skillFile("shared", "Linked from dotfiles inside home."),
      ".claude/skills/shared": link("../../dotfiles/shared"),
      ".claude/skills/evil": link(join(outside, "evil")),
      ".claude/skills/evil-file.md": link(join(outside, "evil.md")),
      ".claude/skills/file-link/SKILL.md": link(join(outside, "evil/SKILL.md")),
    });
    const skills = join(home, ".claude/skills");
    const result = load([rootAt(skills, { containment: home })]);
    expect(names(result)).toEqual(["shared"]);
    expect(diagnosticsOf(skills, result)).toEqual([
      ["symlink_escape", "evil"],
      ["symlink_escape", "evil-file.md"],
      ["symlink_escape", "file-link/SKILL.md"],
    ]);
    expect(result.diagnostics[0]).toMatchObject({
      severity: "error",
      details: { realPath: join(outside, "evil"), anchor: home },
    });
  });

  it("refuses a chain of .. links that the kernel follows out of the root (issue 8)", () => {
    const chain: Record<string, ReturnType<typeof link>> = {
      "d/up": link(".."),
      p1: link("d/up/.."),
      "leak/SKILL.md": link("../p20/etc/passwd"),
      "escape-dir": link("p20/tmp"),
    };
    for (let step = 2; step <= 20; step++) chain[`p${step}`] = link(`p${step - 1}/..`);
    const root = testdir({ ...chain, "fine/SKILL.md": skillFile("fine", "Inside.") });
    const result = load([rootAt(root)]);
    expect(names(result)).toEqual(["fine"]);
    expect(diagnosticsOf(root, result).filter(([code]) => code === "symlink_escape")).toEqual(
      expect.arrayContaining([
        ["symlink_escape", "escape-dir"],
        ["symlink_escape", "leak/SKILL.md"],
      ]),
    );
  });

  it("refuses a project root that leads out of the project, but lets a user root live outside home", () => {
    const elsewhere = testdir({ "a/SKILL.md": skillFile("a", "Somewhere else.") });
    const project = testdir({ ".claude/skills": link(elsewhere) });
    const home = testdir({ ".claude/skills": link(elsewhere) });
    const projectResult = load([
      rootAt(join(project, ".claude/skills"), { scope: "project", containment: project }),
    ]);
    expect(projectResult.items).toEqual([]);
    expect(
      projectResult.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path]),
    ).toEqual([["symlink_escape", join(project, ".claude/skills")]]);
    expect(names(load([rootAt(join(home, ".claude/skills"), { containment: home })]))).toEqual([
      "a",
    ]);
  });

  it("reports broken links and survives link loops", () => {
    const root = testdir({
      "good/SKILL.md": skillFile("good", "Fine."),
      dangling: link("nowhere"),
      loop: link("loop"),
      "cycle/self": link(".."),
      "cycle/SKILL.md": null,
    });
    const result = load([rootAt(root)]);
    expect(names(result)).toEqual(["good"]);
    expect(diagnosticsOf(root, result)).toEqual([
      ["broken_link", "dangling"],
      ["broken_link", "loop"],
    ]);
  });

  it("deduplicates one file reached through two roots", () => {
    const home = testdir({
      ".config/skillshelf/skills/tool/SKILL.md": skillFile("tool", "The real file."),
      ".claude/skills/tool": link("../../.config/skillshelf/skills/tool"),
    });
    const result = load([
      rootAt(join(home, ".claude/skills"), {
        source: "claude-code",
        origin: "claude-code-user",
        precedence: 20,
        trust: "untrusted",
        containment: home,
      }),
      rootAt(join(home, ".config/skillshelf/skills"), { containment: home }),
    ]);
    expect(result.items.map((skill) => skill.path)).toEqual([
      join(home, ".config/skillshelf/skills/tool/SKILL.md"),
    ]);
    expect(result.collisions).toEqual([]);
    expect(
      result.diagnostics.map((diagnostic) => [
        diagnostic.severity,
        diagnostic.code,
        diagnostic.path,
      ]),
    ).toEqual([["info", "duplicate_file", join(home, ".claude/skills/tool/SKILL.md")]]);
  });
});

describe("nested roots", () => {
  it("reports one file reached through two roots without any link", () => {
    const home = testdir({
      ".config/skillshelf/skills/tool/SKILL.md": skillFile("tool", "Reached twice."),
    });
    const library = join(home, ".config/skillshelf/skills");
    const result = loadSkills({
      cwd: home,
      home,
      env: {},
      roots: [rootAt(library)],
      explicitSkillPaths: [join(library, "tool")],
    });
    expect(result.items.map((skill) => skill.scope)).toEqual(["cli"]);
    expect(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ["duplicate_file", join(library, "tool/SKILL.md")],
    ]);
  });
});

describe("explicit paths", () => {
  it("loads a SKILL.md, a loose file, a skill folder and a folder of skill folders", () => {
    const dir = testdir({
      "one/SKILL.md": skillFile("one", "A file."),
      "two/SKILL.md": skillFile("two", "A folder."),
      "many/a/SKILL.md": skillFile("a", "In a folder of folders."),
      "many/b/SKILL.md": skillFile("b", "In a folder of folders."),
      "notes.md": skillFile("notes", "A loose file."),
    });
    const result = loadSkills({
      cwd: dir,
      home: "/nonexistent",
      env: {},
      disableDiscovery: true,
      explicitSkillPaths: ["one/SKILL.md", "two", "many", "notes.md"],
    });
    expect(names(result)).toEqual(["a", "b", "notes", "one", "two"]);
    expect(
      result.items.every(
        (skill) => skill.scope === "cli" && skill.source === "path" && skill.trusted,
      ),
    ).toBe(true);
    expect(result.diagnostics).toEqual([]);
  });

  it("reports a missing or empty explicit path", () => {
    const dir = testdir();
    const result = loadSkills({
      cwd: dir,
      home: "/nonexistent",
      env: {},
      disableDiscovery: true,
      explicitSkillPaths: ["absent", " "],
    });
    expect(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ["path_empty", undefined],
      ["path_missing", join(dir, "absent")],
    ]);
  });
});
