import { join } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { type CliRun, EXAMPLES, exampleEnv, runMain } from "./_run.js";

const project = join(EXAMPLES, "project");
const home = join(EXAMPLES, "home");

/** What `list --json` prints for skills. */
interface ListedSkills {
  version: number;
  skills: {
    name: string;
    path: string;
    scope: string;
    source: string;
    trusted: boolean;
    modelVisible: boolean;
    shadows: string[];
  }[];
  diagnostics: { severity: string; code: string; message: string; path: string }[];
}

describe("skillshelf list on the example library", () => {
  let json: CliRun;
  let parsed: ListedSkills;
  beforeAll(async () => {
    json = await runMain(["list", "--json", "--cwd", project], { env: exampleEnv() });
    parsed = JSON.parse(json.stdout) as ListedSkills;
  });

  it("prints the documented JSON shape", () => {
    expect(json.status).toBe(0);
    expect(parsed.version).toBe(1);
    for (const skill of parsed.skills) {
      expect(Object.keys(skill)).toEqual([
        "name",
        "description",
        "path",
        "scope",
        "source",
        "trusted",
        "unavailable",
        "modelVisible",
        "mcp",
        "hash",
        "shadows",
      ]);
    }
    for (const diagnostic of parsed.diagnostics)
      expect(Object.keys(diagnostic)).toEqual(
        expect.arrayContaining(["severity", "code", "message", "path", "hint"]),
      );
  });

  it("resolves the collision, keeps other agents' copies discovery-only and refuses the escaping link", () => {
    const byName = new Map(parsed.skills.map((skill) => [skill.name, skill]));
    expect([...byName.keys()]).toEqual([
      "api-docs",
      "changelog",
      "code-review",
      "commit-messages",
      "deploy-staging",
      "flaky-test-triage",
      "incident-response",
      "onboarding",
      "pdf-forms",
      "release-notes",
      "smoke-tests",
      "sql-migrations",
    ]);
    expect(byName.get("code-review")).toMatchObject({
      scope: "project",
      path: join(project, ".skillshelf/skills/code-review/SKILL.md"),
      shadows: [join(home, ".config/skillshelf/skills/code-review/SKILL.md")],
    });
    expect(byName.get("pdf-forms")).toMatchObject({
      source: "claude-code",
      scope: "user",
      trusted: false,
      modelVisible: false,
    });
    expect(byName.get("flaky-test-triage")).toMatchObject({
      source: "claude-code",
      scope: "project",
      trusted: false,
      modelVisible: false,
    });
    expect(byName.get("release-notes")).toMatchObject({ trusted: true, modelVisible: false });
    expect(byName.has("notes")).toBe(false);
    expect(
      parsed.diagnostics.map((diagnostic) => [
        diagnostic.severity,
        diagnostic.code,
        diagnostic.path,
      ]),
    ).toEqual([
      ["warning", "collision", join(home, ".claude/skills/commit-messages/SKILL.md")],
      ["warning", "collision", join(home, ".config/skillshelf/skills/code-review/SKILL.md")],
      [
        "warning",
        "frontmatter_recovered",
        join(project, ".skillshelf/skills/incident-response/SKILL.md"),
      ],
      ["error", "symlink_escape", join(project, ".skillshelf/skills/notes")],
    ]);
  });

  it("is byte-identical across runs", async () => {
    expect(
      (await runMain(["list", "--json", "--cwd", project], { env: exampleEnv() })).stdout,
    ).toBe(json.stdout);
  });

  it("shows name, source, scope and model visibility as text, diagnostics on stderr", async () => {
    const text = await runMain(["list", "--cwd", project], { env: exampleEnv() });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatchInlineSnapshot(`
      "NAME               SOURCE       SCOPE    MODEL           MCP     PATH
      api-docs           skillshelf   user     visible         served  ~/.config/skillshelf/skills/writing/api-docs/SKILL.md
      changelog          skillshelf   user     visible         served  ~/.config/skillshelf/skills/writing/changelog/SKILL.md
      code-review        skillshelf   project  visible         served  .skillshelf/skills/code-review/SKILL.md (shadows 1)
      commit-messages    skillshelf   user     visible         served  ~/.config/skillshelf/skills/commit-messages/SKILL.md (shadows 1)
      deploy-staging     skillshelf   project  visible         served  .skillshelf/skills/deploy-staging/SKILL.md
      flaky-test-triage  claude-code  project  discovery-only  -       .claude/skills/flaky-test-triage/SKILL.md
      incident-response  skillshelf   project  visible         served  .skillshelf/skills/incident-response/SKILL.md
      onboarding         agents       project  discovery-only  -       .agents/skills/onboarding/SKILL.md
      pdf-forms          claude-code  user     discovery-only  -       ~/.claude/skills/pdf-forms/SKILL.md
      release-notes      skillshelf   user     operator-only   -       ~/.config/skillshelf/skills/release-notes/SKILL.md
      smoke-tests        skillshelf   project  visible         served  .skillshelf/skills/smoke-tests/SKILL.md
      sql-migrations     skillshelf   user     visible         served  ~/.config/skillshelf/skills/sql-migrations/SKILL.md

      12 skills: 8 visible to the model, 3 discovery-only, 1 operator-only; 8 served over MCP (skillshelf mcp). 2 shadowed copies (--all lists them).
      "
    `);
    const lines = text.stderr.split("\n").filter(Boolean);
    expect(
      lines
        .filter((line) => !line.startsWith("  hint: "))
        .map((line) => line.split(" ").slice(0, 3).join(" ")),
    ).toEqual([
      "warning collision ~/.claude/skills/commit-messages/SKILL.md:",
      "warning collision ~/.config/skillshelf/skills/code-review/SKILL.md:",
      "warning frontmatter_recovered .skillshelf/skills/incident-response/SKILL.md:3:14:",
      "error symlink_escape .skillshelf/skills/notes:",
    ]);
    // every finding is followed by what to do next
    expect(lines.filter((line) => line.startsWith("  hint: "))).toHaveLength(4);
    expect(text.stdout + text.stderr).not.toContain("\u001b[");
  });

  it("lists the shadowed copies with --all", async () => {
    const all = JSON.parse(
      (await runMain(["list", "--all", "--json", "--cwd", project], { env: exampleEnv() })).stdout,
    ) as {
      skills: { name: string; path: string; shadowedBy?: string }[];
    };
    expect(
      all.skills
        .filter((skill) => skill.shadowedBy !== undefined)
        .map((skill) => [skill.name, skill.path, skill.shadowedBy]),
    ).toEqual([
      [
        "code-review",
        join(home, ".config/skillshelf/skills/code-review/SKILL.md"),
        join(project, ".skillshelf/skills/code-review/SKILL.md"),
      ],
      [
        "commit-messages",
        join(home, ".claude/skills/commit-messages/SKILL.md"),
        join(home, ".config/skillshelf/skills/commit-messages/SKILL.md"),
      ],
    ]);
  });
});

describe("skillshelf list elsewhere", () => {
  it("says so when there are no skills, and reads SKILLSHELF_HOME and XDG_CONFIG_HOME", async () => {
    const emptyHome = testdir();
    expect((await runMain(["list", "--cwd", emptyHome], { env: { HOME: emptyHome } })).stdout).toBe(
      "No skills found.\n",
    );
    const xdg = testdir({ "skillshelf/skills/x/SKILL.md": skillFile("x", "From XDG.") });
    const viaXdg = JSON.parse(
      (
        await runMain(["list", "--json", "--cwd", emptyHome], {
          env: { HOME: emptyHome, XDG_CONFIG_HOME: xdg },
        })
      ).stdout,
    );
    expect(viaXdg.skills.map((skill: { name: string }) => skill.name)).toEqual(["x"]);
  });

  it("uses the process folder without --cwd", async () => {
    const dir = testdir({
      ".skillshelf/skills/here/SKILL.md": skillFile("here", "In the project."),
    });
    const result = JSON.parse(
      (await runMain(["list", "--json"], { cwd: dir, env: { HOME: testdir() } })).stdout,
    );
    expect(
      result.skills.map((skill: { name: string; scope: string }) => [skill.name, skill.scope]),
    ).toEqual([["here", "project"]]);
  });

  it("reads frontmatter the fast path leaves to the full YAML parser", async () => {
    const dir = testdir({
      ".skillshelf/skills/anchored/SKILL.md":
        "---\nname: anchored\ndescription: &text Reads YAML anchors.\nmetadata: { summary: *text }\n---\nbody\n",
      ".skillshelf/skills/repeated/SKILL.md":
        "---\nname: repeated\ndescription: one\ndescription: two\n---\nbody\n",
    });
    const result = JSON.parse(
      (await runMain(["list", "--json", "--cwd", dir], { env: { HOME: testdir() } })).stdout,
    );
    expect(
      result.skills.map((skill: { name: string; description: string }) => [
        skill.name,
        skill.description,
      ]),
    ).toEqual([["anchored", "Reads YAML anchors."]]);
    // a repeated key is found by the full parser's walk over the document
    expect(
      result.diagnostics
        .map((diagnostic: { code: string; path: string }) => [diagnostic.code, diagnostic.path])
        .filter(([, path]: string[]) => path?.endsWith("SKILL.md")),
    ).toEqual([["frontmatter_invalid", join(dir, ".skillshelf/skills/repeated/SKILL.md")]]);
  });
});
