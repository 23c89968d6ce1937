import { execFileSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { HEAD_BLOCK_BYTES, readTextDocument, readTextHead } from "@skillshelf/core";
import {
  type LoadSkillsResult,
  loadSkills,
  readSkillBody,
  type Skill,
  skillFileHash,
} from "@skillshelf/skills-loader";
import { CORPUS_DIR, corpusFiles, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { readSkillFile } from "../src/_read-skill.js";

const nowhere = { cwd: "/nonexistent/cwd", home: "/nonexistent/home", env: {} } as const;

/** A load of `paths`, reading frontmatter only (the default) or whole files (`includeBody`). */
function load(paths: readonly string[], includeBody: boolean): LoadSkillsResult {
  return loadSkills({ ...nowhere, disableDiscovery: true, explicitSkillPaths: paths, includeBody });
}

/** What a load says, bar what only a whole read has (the body, and the file's hash). */
function comparable(result: LoadSkillsResult) {
  const skill = ({ body: _body, hash: _hash, ...rest }: Skill) => rest;
  return {
    items: result.items.map(skill),
    diagnostics: result.diagnostics,
    collisions: result.collisions.map((group) => ({
      winner: skill(group.winner),
      losers: group.losers.map((loss) => ({ ...loss, item: skill(loss.item) })),
    })),
  };
}

/** Both reads of one tree agree, and the body and hash the head read left out read back equal. */
function expectSameReads(paths: readonly string[]): LoadSkillsResult {
  const whole = load(paths, true);
  const head = load(paths, false);
  expect(comparable(head)).toEqual(comparable(whole));
  for (const [index, skill] of head.items.entries()) {
    expect(skill.body).toBeUndefined();
    expect(skill.hash).toBeUndefined();
    expect(readSkillBody(skill)).toBe(whole.items[index]?.body);
    expect(skillFileHash(skill)).toBe(whole.items[index]?.hash);
  }
  return head;
}

const frontmatter = (lines: string) => `---\n${lines}---\n`;
const body = (bytes: number) =>
  `\n# Steps\n\n${"Do the next thing with care. ".repeat(bytes / 28)}\n`;

/** Generated files around the first block's edge, each in a skill folder of its own. */
const CASES: Record<string, string | Buffer> = {
  "fits-the-block": `${frontmatter("name: fits-the-block\ndescription: Small.\n")}${body(500)}`,
  "long-body": `${frontmatter("name: long-body\ndescription: Long body.\n")}${body(40_000)}`,
  "over-50-kib": `${frontmatter("name: over-50-kib\ndescription: Big.\n")}${body(60_000)}`,
  "frontmatter-past-the-block": `${frontmatter(`name: frontmatter-past-the-block\ndescription: ${"word ".repeat(3_000)}\n`)}${body(9_000)}`,
  "frontmatter-twice-the-block": `${frontmatter(`name: frontmatter-twice-the-block\ndescription: >-\n${"  folded line of text\n".repeat(900)}`)}${body(9_000)}`,
  "fence-at-the-edge": `${frontmatter(`name: fence-at-the-edge\ndescription: ${"x".repeat(HEAD_BLOCK_BYTES - 58)}\n`)}${body(9_000)}`,
  "multibyte-at-the-edge": `${frontmatter(`name: multibyte-at-the-edge\ndescription: ${"é".repeat(HEAD_BLOCK_BYTES / 2 - 20)}\n`)}${body(9_000)}`,
  crlf: `---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\n${body(9_000).replaceAll("\n", "\r\n")}`,
  bom: `\uFEFF${frontmatter("name: bom\ndescription: Starts with a byte-order mark.\n")}${body(9_000)}`,
  "fence-with-spaces": `---  \nname: fence-with-spaces\ndescription: Fences with trailing blanks.\n--- \t\n${body(9_000)}`,
  "dashes-in-a-block-scalar": `${frontmatter("name: dashes-in-a-block-scalar\ndescription: |\n  ---\n  not a fence\n")}${body(9_000)}`,
  "no-closing-fence": `---\nname: no-closing-fence\ndescription: Never closed.\n${body(9_000)}`,
  "no-frontmatter": `# Just markdown\n${body(9_000)}`,
  "opening-line-past-the-block": `---${" ".repeat(HEAD_BLOCK_BYTES * 2)}\nname: opening-line-past-the-block\ndescription: A very long opening line.\n---\n${body(9_000)}`,
  "first-line-past-the-block": `${"#".repeat(HEAD_BLOCK_BYTES * 2)}\n${body(9_000)}`,
  "invalid-yaml": `${frontmatter("name: invalid-yaml\ndescription: [unclosed\n")}${body(9_000)}`,
  "recovered-yaml": `${frontmatter("name: recovered-yaml\ndescription: Use when: it matters\n")}${body(9_000)}`,
  "nul-in-frontmatter": `${frontmatter("name: nul-in-frontmatter\ndescription: a\0b\n")}${body(9_000)}`,
  "not-utf8-in-frontmatter": Buffer.concat([
    Buffer.from("---\nname: not-utf8-in-frontmatter\ndescription: "),
    Buffer.from([0xc3, 0x28]),
    Buffer.from(`\n---\n${body(9_000)}`),
  ]),
  "over-the-limit": `${frontmatter("name: over-the-limit\ndescription: Too big.\n")}${body(1_100_000)}`,
};

describe("frontmatter-only reads (issue 31, item 1)", () => {
  it("agree with whole reads over every skill of the corpus", () => {
    const skills = corpusFiles("skill").map((file) => join(CORPUS_DIR, file.path));
    expect(skills.length).toBeGreaterThan(20);
    for (const path of skills) expectSameReads([path]);
  });

  it("agree with whole reads on frontmatter longer than the first block, CRLF, BOM and broken fences", () => {
    const dir = testdir(
      Object.fromEntries(Object.entries(CASES).map(([name, text]) => [`${name}/SKILL.md`, text])),
    );
    const result = expectSameReads([dir]);
    const codesAt = (name: string) =>
      result.diagnostics
        .filter((diagnostic) => diagnostic.path === join(dir, name, "SKILL.md"))
        .map((diagnostic) => diagnostic.code);
    expect(result.items.map((skill) => skill.name)).toEqual(
      expect.arrayContaining([
        "bom",
        "crlf",
        "dashes-in-a-block-scalar",
        "fence-at-the-edge",
        "fence-with-spaces",
        "frontmatter-past-the-block",
        "frontmatter-twice-the-block",
        "long-body",
        "multibyte-at-the-edge",
        "opening-line-past-the-block",
        "over-50-kib",
        "recovered-yaml",
      ]),
    );
    expect(codesAt("no-closing-fence")).toEqual(["frontmatter_unclosed"]);
    expect(codesAt("no-frontmatter")).toEqual(["frontmatter_missing"]);
    expect(codesAt("first-line-past-the-block")).toEqual(["frontmatter_missing"]);
    expect(codesAt("nul-in-frontmatter")).toEqual(["file_contains_nul"]);
    expect(codesAt("not-utf8-in-frontmatter")).toEqual(["file_not_utf8"]);
    expect(codesAt("over-the-limit")).toEqual(["file_too_large"]);
    expect(codesAt("over-50-kib")).toEqual(["file_large"]);
    expect(codesAt("invalid-yaml")).toContain("frontmatter_invalid");
  });

  it("give a FIFO the whole read's refusal without blocking", () => {
    const dir = testdir({ "pipe/.keep": "" });
    execFileSync("mkfifo", [join(dir, "pipe", "SKILL.md")]);
    const path = join(dir, "pipe", "SKILL.md");
    const file = { path, realPath: path, maxBytes: 1024, what: "skill file" };
    const head = readTextHead(file);
    expect(head).toEqual(readTextDocument(file));
    expect(head.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["not_a_file"]);
  });

  it("read what is there when the file grew or shrank after the walk's stat", () => {
    const dir = testdir({
      "grows/SKILL.md": `${frontmatter("name: grows\ndescription: Grows.\n")}${body(100)}`,
      "shrinks/SKILL.md": `${frontmatter("name: shrinks\ndescription: Shrinks.\n")}${body(20_000)}`,
    });
    for (const [name, after] of [
      ["grows", `${frontmatter("name: grows\ndescription: Grew.\n")}${body(70_000)}`],
      ["shrinks", `${frontmatter("name: shrinks\ndescription: Shrank.\n")}`],
    ] as const) {
      const path = join(dir, name, "SKILL.md");
      const location = {
        path,
        realPath: path,
        loose: false,
        unusualName: false,
        baseDir: dirname(path),
        subject: name,
        stats: statSync(path),
      };
      writeFileSync(path, after);
      const whole = readSkillFile(location, true, undefined);
      const head = readSkillFile(location, false, undefined);
      expect(head.fields).toEqual(whole.fields);
      expect(head.diagnostics).toEqual(whole.diagnostics);
      expect(head.signature).toEqual(whole.signature);
    }
  });

  it("leave a body that is not text to the body's read, which refuses it", () => {
    const dir = testdir({
      "binary-body/SKILL.md": Buffer.concat([
        Buffer.from(
          `${frontmatter("name: binary-body\ndescription: Payload below.\n")}${body(8_000)}`,
        ),
        Buffer.from([0, 1, 2, 0xff]),
      ]),
    });
    expect(load([dir], true).diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "file_contains_nul",
    ]);
    const head = load([dir], false);
    expect(head.items.map((skill) => skill.name)).toEqual(["binary-body"]);
    expect(() => readSkillBody(head.items[0] as Skill)).toThrow(
      expect.objectContaining({ code: "file_contains_nul" }),
    );
  });

  it("refuse the body of a skill file that changed after it was loaded", () => {
    const dir = testdir({
      "edited/SKILL.md": `${frontmatter("name: edited\ndescription: Edited.\n")}${body(9_000)}`,
    });
    const [skill] = load([dir], false).items;
    writeFileSync(
      join(dir, "edited", "SKILL.md"),
      `${frontmatter("name: edited\ndescription: Edited.\n")}Other steps.\n`,
    );
    expect(() => readSkillBody(skill as Skill)).toThrow(
      expect.objectContaining({ code: "skill_changed" }),
    );
    expect(() => skillFileHash(skill as Skill)).toThrow(
      expect.objectContaining({ code: "skill_changed" }),
    );
  });
});
