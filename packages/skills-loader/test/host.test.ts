import { join } from "node:path";
import { loadSkills, modelVisibleSkills } from "@skillshelf/skills-loader";
import { link, skillFile, testdir, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

/** A project with Claude Code's folder and the shared .agents one, and a user Claude Code folder. */
function folders() {
  return testEnvironment({
    home: { ".claude/skills/notes/SKILL.md": skillFile("notes", "Take notes.") },
    project: {
      ".claude/skills/deploy/SKILL.md": skillFile("deploy", "Deploy the app."),
      ".agents/skills/review/SKILL.md": skillFile("review", "Review a change."),
    },
  });
}

describe("the host option (issue 30, item 1)", () => {
  it("reads the host's own folders as trusted, and says in one diagnostic what else it keeps from the model", () => {
    const { home, cwd } = folders();
    const load = (host?: string | readonly string[]) =>
      loadSkills({ cwd, home, env: {}, ...(host === undefined ? {} : { host }) });
    const visible = (host?: string | readonly string[]) =>
      modelVisibleSkills(load(host).items).map((skill) => skill.name);
    const hidden = (host?: string | readonly string[]) =>
      load(host)
        .diagnostics.filter((one) => one.code === "untrusted_hidden")
        .map((one) => one.details);
    expect(visible()).toEqual([]);
    expect(hidden()).toEqual([
      { count: 3, sources: ["agents", "claude-code"], suggestion: "agents" },
    ]);
    expect(visible("claude-code")).toEqual(["deploy", "notes"]);
    expect(hidden("claude-code")).toEqual([
      { count: 1, sources: ["agents"], suggestion: "agents" },
    ]);
    expect(visible(["claude-code", "agents"])).toEqual(["deploy", "notes", "review"]);
    expect(hidden(["claude-code", "agents"])).toEqual([]);
  });

  it("takes an agent's aliases, and refuses an agent the table does not have, with a suggestion", () => {
    const { home, cwd } = folders();
    expect(() => loadSkills({ cwd, home, env: {}, host: "claude-cod" })).toThrow(
      expect.objectContaining({
        code: "option_invalid",
        details: { option: "host", suggestion: "claude-code" },
      }),
    );
    expect(() => loadSkills({ cwd, home, env: {}, host: [3] as unknown as string[] })).toThrow(
      expect.objectContaining({ code: "option_invalid" }),
    );
  });
});

describe("roots a host builds (issue 30, item 7)", () => {
  it("follow links inside the project they belong to, never out of it, without containment set", () => {
    const outside = testdir({ "far/SKILL.md": skillFile("far", "Outside the project.") });
    const { home, cwd } = testEnvironment({
      project: {
        "shared/lint/SKILL.md": skillFile("lint", "Lint the code."),
        "harness/skills/lint": link("../../shared/lint"),
        "harness/skills/far": link(join(outside, "far")),
      },
    });
    const { items, diagnostics } = loadSkills({
      cwd,
      home,
      env: {},
      roots: [
        {
          path: join(cwd, "harness", "skills"),
          scope: "project",
          source: "harness",
          origin: "harness",
          precedence: 40,
          trust: "trusted",
        },
      ],
    });
    expect(items.map((skill) => skill.name)).toEqual(["lint"]);
    expect(diagnostics.map((one) => [one.code, one.path])).toContainEqual([
      expect.stringMatching(/link/),
      join(cwd, "harness", "skills", "far"),
    ]);
  });
});
