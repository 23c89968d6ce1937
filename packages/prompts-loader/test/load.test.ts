import { join } from "node:path";
import { resolveEnvironment } from "@skillshelf/core";
import {
  defaultPromptRoots,
  type LoadPromptTemplatesResult,
  loadPromptTemplates,
  MAX_PROMPT_BYTES,
  type ResourceRoot,
} from "@skillshelf/prompts-loader";
import { link, testdir, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const rootAt = (path: string, overrides: Partial<ResourceRoot> = {}): ResourceRoot => ({
  path,
  scope: "user",
  source: "skillshelf",
  origin: "user",
  precedence: 30,
  trust: "trusted",
  ...overrides,
});

function load(
  tree: Parameters<typeof testdir>[0],
  overrides: Partial<ResourceRoot> = {},
): { dir: string; result: LoadPromptTemplatesResult } {
  const dir = testdir(tree);
  return {
    dir,
    result: loadPromptTemplates({
      cwd: "/nonexistent",
      home: "/nonexistent",
      env: {},
      roots: [rootAt(dir, overrides)],
    }),
  };
}

const codes = (result: LoadPromptTemplatesResult) =>
  result.diagnostics.map((diagnostic) => `${diagnostic.severity}:${diagnostic.code}`);

describe("loading templates", () => {
  it("names templates by root-relative path with ':' and reads nested folders", () => {
    const { result } = load({
      "review.md": "Review $1",
      "team/deploy.md": "Deploy",
      "team/ops/page.md": "Page",
      "notes.txt": "x",
      ".hidden/x.md": "x",
    });
    expect(result.items.map((template) => template.name)).toEqual([
      "review",
      "team:deploy",
      "team:ops:page",
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it.each([
    // file content, description, argument hint, display-only, diagnostics
    [
      "---\ndescription: Review a file\nargument-hint: <path>\n---\nBody",
      "Review a file",
      "<path>",
      false,
      [],
    ],
    ["---\nargumentHint: '[file]'\ndisplayOnly: true\n---\n# Title", "Title", "[file]", true, []],
    [
      "---\nargument-hint: [file] [mode]\n---\nBody",
      "Body",
      "[file] [mode]",
      false,
      ["warning:frontmatter_recovered"],
    ],
    ["---\nargument-hint: [file]\n---\nBody", "Body", "[file]", false, []],
    [
      "---\ndescription: Audit it. Usage: /audit [path]\n---\n",
      "Audit it. Usage: /audit [path]",
      undefined,
      false,
      ["warning:frontmatter_recovered"],
    ],
    ["---\ndescription: {{DESCRIPTION}}\n---\nBody", "{{DESCRIPTION}}", undefined, false, []],
    [
      "---\ndescription: [unclosed\nargument-hint: <x>\n---\nBody",
      "[unclosed",
      "<x>",
      false,
      ["warning:frontmatter_invalid"],
    ],
    ["---\ndisplay-only: yes\n---\nBody", "Body", undefined, false, ["warning:field_invalid"]],
    [
      "---\nunclosed: frontmatter\n\nBody",
      "---",
      undefined,
      false,
      ["warning:frontmatter_unclosed"],
    ],
    [
      "# A heading that is quite a lot longer than sixty characters in total\nmore",
      "A heading that is quite a lot longer than sixty character...",
      undefined,
      false,
      [],
    ],
    ["\n\n   \n", "Prompt template", undefined, false, []],
  ])("%j", (content, description, argumentHint, displayOnly, diagnostics) => {
    const { result } = load({ "t.md": content });
    expect(result.items[0]).toMatchObject({ name: "t", description, displayOnly });
    expect(result.items[0]?.argumentHint).toBe(argumentHint);
    expect(codes(result)).toEqual(diagnostics);
  });

  it("keeps the body after the frontmatter, or the whole file without one", () => {
    const { result } = load({
      "a.md": "---\ndescription: x\n---\nBody $1\n",
      "b.md": "No frontmatter $1\n",
    });
    expect(result.items.map((template) => template.content)).toEqual([
      "Body $1\n",
      "No frontmatter $1\n",
    ]);
  });

  it.each([
    ["too large", "x".repeat(MAX_PROMPT_BYTES + 1), "error:file_too_large"],
    ["binary", Buffer.from([0x2d, 0x00, 0x2d]), "error:file_contains_nul"],
    ["invalid UTF-8", Buffer.from([0x61, 0xff]), "error:file_not_utf8"],
  ])("loads a %s template as unavailable, with the reason", (_name, content, code) => {
    const { result } = load({ "bad.md": content });
    expect(result.items[0]).toMatchObject({
      name: "bad",
      content: "",
      unavailable: expect.any(String),
    });
    expect(codes(result)).toEqual([code]);
  });

  it("refuses symlinks out of the root and warns about names with whitespace", () => {
    const outside = testdir({ "secret.md": "secret" });
    const { dir, result } = load({
      "ok.md": "ok",
      "leak.md": link(join(outside, "secret.md")),
      "two words.md": "x",
    });
    expect(result.items.map((template) => template.name)).toEqual(["ok", "two words"]);
    expect(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ["symlink_escape", join(dir, "leak.md")],
      ["name_invalid", join(dir, "two words.md")],
    ]);
  });
});

describe("roots, trust and collisions", () => {
  it("lists agent prompt folders as untrusted and our libraries as trusted", () => {
    const roots = defaultPromptRoots(resolveEnvironment({ cwd: "/p", home: "/h", env: {} }));
    expect(roots.map((root) => [root.path, root.origin, root.precedence, root.trust])).toEqual([
      ["/h/.claude/commands", "claude-code-user", 20, "untrusted"],
      ["/h/.codex/prompts", "codex-user", 20, "untrusted"],
      ["/h/.config/opencode/command", "opencode-user", 20, "untrusted"],
      ["/h/.pi/agent/prompts", "pi-user", 20, "untrusted"],
      ["/h/.cursor/commands", "cursor-user", 20, "untrusted"],
      ["/h/.factory/commands", "droid-user", 20, "untrusted"],
      ["/h/.roo/commands", "roo-user", 20, "untrusted"],
      ["/h/.config/skillshelf/prompts", "user", 30, "trusted"],
      ["/p/.claude/commands", "claude-code-project", 40, "untrusted"],
      ["/p/.codex/prompts", "codex-project", 40, "untrusted"],
      ["/p/.opencode/command", "opencode-project", 40, "untrusted"],
      ["/p/.pi/prompts", "pi-project", 40, "untrusted"],
      ["/p/.cursor/commands", "cursor-project", 40, "untrusted"],
      ["/p/.factory/commands", "droid-project", 40, "untrusted"],
      ["/p/.roo/commands", "roo-project", 40, "untrusted"],
      ["/p/.skillshelf/prompts", "project", 50, "trusted"],
    ]);
  });

  it("resolves clashes: trusted first, then precedence, reporting each loser", () => {
    const environment = testEnvironment({
      home: {
        ".config/skillshelf/prompts/review.md": "user review",
        ".claude/commands/commit.md": "claude commit",
      },
      project: {
        ".claude/commands/review.md": "claude project review",
        ".skillshelf/prompts/commit.md": "project commit",
      },
    });
    const result = loadPromptTemplates(environment);
    expect(
      result.items.map((template) => [template.name, template.origin, template.trusted]),
    ).toEqual([
      ["commit", "project", true],
      ["review", "user", true],
    ]);
    expect(
      result.collisions.map((group) => [
        group.name,
        group.losers.map((loss) => [loss.item.origin, loss.reason]),
      ]),
    ).toEqual([
      ["commit", [["claude-code-user", "trusted"]]],
      ["review", [["claude-code-project", "trusted"]]],
    ]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "collision",
      "collision",
    ]);
  });
});
