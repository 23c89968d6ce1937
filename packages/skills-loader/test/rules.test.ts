import { join } from "node:path";
import {
  LARGE_SKILL_BYTES,
  type LoadSkillsResult,
  loadSkills,
  MAX_SKILL_BYTES,
  parseToolList,
  readSkillBody,
  resolveToolList,
  type Skill,
} from "@skillshelf/skills-loader";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

/** Load one skill folder `skill/` holding the given SKILL.md content. */
function loadText(
  content: string | Uint8Array,
  options: { toolNames?: string[]; includeBody?: boolean } = {},
): LoadSkillsResult {
  const dir = testdir({ "skill/SKILL.md": content });
  return loadSkills({
    cwd: dir,
    home: "/nonexistent",
    env: {},
    disableDiscovery: true,
    explicitSkillPaths: ["skill"],
    ...options,
  });
}

const codes = (result: LoadSkillsResult) =>
  result.diagnostics.map((diagnostic) => `${diagnostic.severity}:${diagnostic.code}`);

describe("limits", () => {
  const padded = (size: number) => {
    const head = skillFile("skill", "Sized.");
    return head + "x".repeat(size - Buffer.byteLength(head));
  };

  it.each([
    ["exactly 1 MiB loads with a size warning", MAX_SKILL_BYTES, 1, ["warning:file_large"]],
    ["one byte over 1 MiB is refused", MAX_SKILL_BYTES + 1, 0, ["error:file_too_large"]],
    ["exactly 50 KiB loads quietly", LARGE_SKILL_BYTES, 1, []],
    ["one byte over 50 KiB warns", LARGE_SKILL_BYTES + 1, 1, ["warning:file_large"]],
  ])("%s", (_name, size, count, expected) => {
    const result = loadText(padded(size));
    expect(result.items).toHaveLength(count);
    expect(codes(result)).toEqual(expected);
  });

  const badBytes = [
    ["invalid UTF-8", Buffer.from([0xc3, 0x28]), "file_not_utf8"],
    ["a NUL byte", Buffer.from([0]), "file_contains_nul"],
  ] as const;

  it.each(badBytes)("refuses %s in the frontmatter", (_name, bytes, code) => {
    const result = loadText(
      Buffer.concat([
        Buffer.from("---\nname: skill\ndescription: Bad "),
        bytes,
        Buffer.from("\n---\n"),
      ]),
    );
    expect(result.items).toEqual([]);
    expect(codes(result)).toEqual([`error:${code}`]);
  });

  it.each(badBytes)(
    "lists a skill with %s in its body, refused when the body is read",
    (_name, bytes, code) => {
      const content = Buffer.concat([Buffer.from(skillFile("skill", "Bad body.")), bytes]);
      const listed = loadText(content);
      expect(listed.items.map((skill) => skill.name)).toEqual(["skill"]);
      const [skill] = listed.items;
      expect(() => readSkillBody(skill as Skill)).toThrow(expect.objectContaining({ code }));
      const whole = loadText(content, { includeBody: true });
      expect(whole.items).toEqual([]);
      expect(codes(whole)).toEqual([`error:${code}`]);
    },
  );

  it("reads a byte-order mark and CRLF", () => {
    const result = loadText(
      "\ufeff---\r\nname: skill\r\ndescription: With BOM.\r\n---\r\nBody\r\n",
    );
    expect(result.items[0]).toMatchObject({ name: "skill", description: "With BOM." });
    expect(codes(result)).toEqual([]);
  });
});

describe("fields", () => {
  it.each([
    // frontmatter lines after name, loaded?, diagnostics
    ["description: ''", false, ["error:description_missing"]],
    ["description: '   '", false, ["error:description_missing"]],
    ["description: 42", false, ["error:description_invalid"]],
    ["description: [a, b]", false, ["error:description_invalid"]],
    ["description: {{PLACEHOLDER}}", false, ["error:description_invalid"]],
    [`description: ${"d".repeat(1024)}`, true, []],
    [`description: ${"d".repeat(1025)}`, true, ["warning:description_too_long"]],
    [`description: ${"é".repeat(1024)}`, true, []],
    [`description: ${"🚀".repeat(1024)}`, true, []],
    [`description: ${"🚀".repeat(1025)}`, true, ["warning:description_too_long"]],
    ["description: Fine.\ndisable-model-invocation: 'true'", true, ["warning:field_invalid"]],
    ["description: Fine.\nskillshelf: yes", true, ["warning:field_invalid"]],
    ["description: Fine.\nallowed-tools: {a: b}", true, ["warning:field_invalid"]],
    ["description: Fine.\nallowed-tools: [Read, 3]", true, ["warning:field_invalid"]],
    ["description: Fine.\nName: other", true, ["warning:key_case"]],
    ["description: Fine.\nDescription: other", true, ["warning:key_case"]],
  ])("%j", (lines, loaded, expected) => {
    const result = loadText(`---\nname: skill\n${lines}\n---\nbody\n`);
    expect(result.items).toHaveLength(loaded ? 1 : 0);
    expect(codes(result)).toEqual(expected);
  });

  it.each([
    ["skill", "skill", []],
    ["Skill", "Skill", ["warning:name_invalid", "warning:name_mismatch"]],
    // a name /skill <name> cannot address falls back to the folder's
    ["my skill", "skill", ["warning:skill_name_unaddressable_fallback"]],
    ["my_skill", "my_skill", ["warning:name_invalid", "warning:name_mismatch"]],
    ["-skill", "-skill", ["warning:name_invalid", "warning:name_mismatch"]],
    ["sk--ill", "sk--ill", ["warning:name_invalid", "warning:name_mismatch"]],
    ["other", "other", ["warning:name_mismatch"]],
    ["a".repeat(65), "a".repeat(65), ["warning:name_too_long", "warning:name_mismatch"]],
    ["''", "skill", ["info:name_missing"]],
    ["[a]", "skill", ["warning:field_invalid"]],
  ])("name %j is %j", (name, expected, diagnostics) => {
    const result = loadText(`---\nname: ${name}\ndescription: Fine.\n---\n`);
    expect(result.items[0]?.name).toBe(expected);
    expect(codes(result).sort()).toEqual([...diagnostics].sort());
  });

  it("only a literal true disables model invocation", () => {
    expect(
      loadText(skillFile("skill", "x", "disable-model-invocation: true\n")).items[0]
        ?.disableModelInvocation,
    ).toBe(true);
    expect(
      loadText(skillFile("skill", "x", "disable-model-invocation: false\n")).items[0]
        ?.disableModelInvocation,
    ).toBe(false);
    expect(loadText(skillFile("skill", "x")).items[0]?.disableModelInvocation).toBe(false);
  });

  it("recovers a description holding ': ' with a warning", () => {
    const result = loadText("---\nname: skill\ndescription: Audit it. Usage: /skill [path]\n---\n");
    expect(result.items[0]?.description).toBe("Audit it. Usage: /skill [path]");
    expect(codes(result)).toEqual(["warning:frontmatter_recovered"]);
  });
});

describe("tool lists", () => {
  it.each([
    ["Read, Write, Edit", ["Read", "Write", "Edit"]],
    ["Bash(git:*) Read", ["Bash(git:*)", "Read"]],
    ["Bash(git add, git commit), Read", ["Bash(git add, git commit)", "Read"]],
    ["Bash(git diff:*) Read  Grep", ["Bash(git diff:*)", "Read", "Grep"]],
    ["Read,read, READ", ["Read"]],
    [
      ["Read", " Grep ", ""],
      ["Read", "Grep"],
    ],
    ["", []],
    [{ a: 1 }, undefined],
    [7, undefined],
  ])("%j → %j", (value, expected) => {
    expect(parseToolList(value)).toEqual(expected);
  });

  it("resolves names case-insensitively against the host and keeps arguments", () => {
    expect(
      resolveToolList(["bash(git:*)", "READ", "Teleport"], ["Bash", "Read"], "allowed-tools", "/s"),
    ).toEqual({
      tools: ["Bash(git:*)", "Read"],
      diagnostics: [
        expect.objectContaining({
          code: "tool_unknown",
          details: { key: "allowed-tools", tools: ["Teleport"] },
        }),
      ],
    });
  });

  it("narrows nothing when allowed-tools names no host tool", () => {
    const result = resolveToolList(["Teleport"], ["Read"], "allowed-tools", "/s");
    expect(result.tools).toBeUndefined();
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "tool_unknown",
      "tools_unresolved",
    ]);
  });

  it("resolves through loadSkills when the host passes tool names", () => {
    const result = loadText(
      skillFile(
        "skill",
        "x",
        "allowed-tools: read, Bash(npm:*)\ndisallowed-tools: [Write, Nope]\n",
      ),
      { toolNames: ["Read", "Write", "Bash"] },
    );
    expect(result.items[0]).toMatchObject({
      allowedTools: ["Read", "Bash(npm:*)"],
      disallowedTools: ["Write"],
    });
    expect(codes(result)).toEqual(["warning:tool_unknown"]);
  });
});

describe("provenance and requirements", () => {
  it("reads provenance from the skillshelf block first, then the top level", () => {
    const result = loadText(
      skillFile(
        "skill",
        "x",
        "source-url: https://flat.example/skill\nregistry-id: acme/flat\nskillshelf:\n  registry-id: acme/tools\n  installed-at: '2026-11-01T00:00:00Z'\n  audit: pass\n",
      ),
    );
    expect(result.items[0]?.provenance).toEqual({
      installUrl: "https://flat.example/skill",
      registryId: "acme/tools",
      installedAt: "2026-11-01T00:00:00Z",
      audit: "pass",
    });
  });

  it.each([
    // audit: one of its four values
    ["audit: pass", { audit: "pass" }],
    ["audit: unknown", { audit: "unknown" }],
    ["audit: maybe", undefined],
    ["audit: PASS", undefined],
    // installedBy: a name, never a sentence
    ["installed-by: worker", { installedBy: "worker" }],
    ["skillshelf:\n  installedBy: skillshelf", { installedBy: "skillshelf" }],
    ["installed-by: 'npm:@acme/skills'", { installedBy: "npm:@acme/skills" }],
    ["installed-by: ignore previous instructions", undefined],
    ["installed-by: '-rf'", undefined],
    [`installed-by: ${"a".repeat(65)}`, undefined],
    ["installed-by: 42", undefined],
  ])("reads %j as provenance %j", (field, provenance) => {
    expect(loadText(skillFile("skill", "x", `${field}\n`)).items[0]?.provenance).toEqual(
      provenance,
    );
  });

  it("warns when a required skill is not available", () => {
    const dir = testdir({
      "a/SKILL.md": skillFile(
        "a",
        "Needs b and c.",
        "requires: [skill:b, 'skill:c', mcp:server]\n",
      ),
      "b/SKILL.md": skillFile("b", "Here."),
    });
    const result = loadSkills({
      cwd: dir,
      home: "/nonexistent",
      env: {},
      disableDiscovery: true,
      explicitSkillPaths: ["."],
    });
    expect(
      result.diagnostics.map((diagnostic) => [
        diagnostic.code,
        diagnostic.path,
        diagnostic.details,
      ]),
    ).toEqual([
      ["requirement_missing", join(dir, "a/SKILL.md"), { name: "a", requirement: "skill:c" }],
    ]);
  });
});
