import { parseFrontmatter, splitFrontmatter } from "@skillshelf/core";
import { describe, expect, it } from "vitest";

describe("splitFrontmatter", () => {
  it.each([
    // name, text, expected
    ["plain", "---\nname: a\n---\nbody\n", { kind: "found", yaml: "name: a\n", body: "body\n" }],
    [
      "CRLF",
      "---\r\nname: a\r\n---\r\nbody\r\n",
      { kind: "found", yaml: "name: a\r\n", body: "body\r\n" },
    ],
    [
      "byte-order mark",
      "\ufeff---\nname: a\n---\nbody",
      { kind: "found", yaml: "name: a\n", body: "body" },
    ],
    [
      "delimiters with trailing spaces",
      "--- \nname: a\n---\t\nbody",
      { kind: "found", yaml: "name: a\n", body: "body" },
    ],
    ["closing at end of file", "---\nname: a\n---", { kind: "found", yaml: "name: a\n", body: "" }],
    ["empty block", "---\n---\nbody", { kind: "found", yaml: "", body: "body" }],
    [
      "a longer rule is not a delimiter",
      "---\na: 1\n----\n---\nb",
      { kind: "found", yaml: "a: 1\n----\n", body: "b" },
    ],
    ["missing", "# Title\n---\n", { kind: "missing", body: "# Title\n---\n" }],
    [
      "missing after a blank line",
      "\n---\na: 1\n---\n",
      { kind: "missing", body: "\n---\na: 1\n---\n" },
    ],
    ["unclosed", "---\nname: a\nbody\n", { kind: "unclosed" }],
    ["opening line only", "---", { kind: "unclosed" }],
    ["opening line and newline only", "---\n", { kind: "unclosed" }],
  ])("%s", (_name, text, expected) => {
    expect(splitFrontmatter(text)).toEqual(expected);
  });
});

describe("parseFrontmatter", () => {
  it("parses a mapping and keeps the body", () => {
    const result = parseFrontmatter("---\nname: a\ndescription: Does things.\n---\n# A\n");
    expect(result).toEqual({
      ok: true,
      data: { name: "a", description: "Does things." },
      body: "# A\n",
      diagnostics: [],
    });
  });

  it("treats an empty block as an empty mapping", () => {
    expect(parseFrontmatter("---\n# only a comment\n---\nbody")).toMatchObject({
      ok: true,
      data: {},
    });
  });

  it.each([
    ["frontmatter_missing", "no frontmatter here"],
    ["frontmatter_unclosed", "---\nname: a\n"],
    ["frontmatter_invalid", "---\ndescription: [unclosed bracket\n---\n"],
    ["frontmatter_invalid", "---\nname: a\nname: b\n---\n"],
    ["frontmatter_not_mapping", "---\n- a\n- b\n---\n"],
    ["frontmatter_not_mapping", "---\njust text\n---\n"],
    ["frontmatter_too_large", `---\ndescription: ${"x".repeat(70_000)}\n---\n`],
    [
      "frontmatter_alias_limit",
      `---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${Array(10).fill("*a").join(", ")}]\nc: &c [${Array(10).fill("*b").join(", ")}]\nd: [${Array(10).fill("*c").join(", ")}]\n---\n`,
    ],
  ])("refuses with %s", (code, text) => {
    const result = parseFrontmatter(text, { path: "/x/SKILL.md" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe(code);
    expect(result.diagnostic).toMatchObject({ severity: "error", code, path: "/x/SKILL.md" });
  });

  it("reports the YAML error's line in file terms", () => {
    const result = parseFrontmatter("---\nname: a\nname: b\n---\n");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostic).toMatchObject({ line: 3 });
  });

  it("survives deep nesting without throwing", () => {
    const text = `---\na: ${"[".repeat(20_000)}\n---\n`;
    expect(parseFrontmatter(text, { maxLength: 100_000 }).ok).toBe(false);
  });

  it("keeps the body of a file without frontmatter", () => {
    expect(parseFrontmatter("# Title\n")).toMatchObject({
      ok: false,
      code: "frontmatter_missing",
      body: "# Title\n",
    });
  });
});

describe("lenient recovery", () => {
  it.each([
    [
      "a flow list followed by text",
      "argument-hint: [doc-type] | --implementation | --api\ndescription: Update docs\n",
      { "argument-hint": "[doc-type] | --implementation | --api", description: "Update docs" },
      ["argument-hint"],
    ],
    [
      "two flow lists",
      "argument-hint: [resource] [method] [flags]\n",
      { "argument-hint": "[resource] [method] [flags]" },
      ["argument-hint"],
    ],
    [
      "a description holding ': '",
      "name: a11y-audit\ndescription: Scan a project. Usage: /a11y-audit [path]\n",
      { name: "a11y-audit", description: "Scan a project. Usage: /a11y-audit [path]" },
      ["description"],
    ],
    [
      "CRLF lines",
      "description: Run it. Usage: /x\r\nname: x\r\n",
      { description: "Run it. Usage: /x", name: "x" },
      ["description"],
    ],
    [
      "a value with quotes and backslashes",
      'description: Say "hi": now \\o/\n',
      { description: 'Say "hi": now \\o/' },
      ["description"],
    ],
  ])("recovers %s and warns", (_name, yaml, data, keys) => {
    const result = parseFrontmatter(`---\n${yaml}---\nbody`, { path: "/p.md" });
    expect(result).toMatchObject({ ok: true, data, body: "body" });
    if (!result.ok) return;
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      severity: "warning",
      code: "frontmatter_recovered",
      path: "/p.md",
      details: { keys },
    });
  });

  it("does not touch block scalar content", () => {
    const result = parseFrontmatter("---\ndescription: |\n  Usage: here: there\nbad: [a] b\n---\n");
    expect(result).toMatchObject({
      ok: true,
      data: { description: "Usage: here: there\n", bad: "[a] b" },
    });
  });

  it("does not recover an unclosed flow list", () => {
    expect(parseFrontmatter("---\ndescription: [unclosed bracket\n---\n")).toMatchObject({
      ok: false,
      code: "frontmatter_invalid",
    });
  });

  it("is off in strict mode", () => {
    const result = parseFrontmatter("---\nargument-hint: [a] | --b\n---\n", { lenient: false });
    expect(result).toMatchObject({ ok: false, code: "frontmatter_invalid" });
  });
});
