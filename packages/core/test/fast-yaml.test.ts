import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  fastParseYamlList,
  fastParseYamlMapping,
  parseYamlDocument,
  parseYamlMapping,
  splitFrontmatter,
} from "@skillshelf/core";
import { CORPUS_DIR, corpusFiles, pick as pickOne, seededRandom } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

/** The fast path (for a mapping, or a list of them) must decline or agree exactly with the full parser. */
function expectAgreement(yaml: string, shape: "mapping" | "list" = "mapping"): boolean {
  // the full parser's default alias budget
  const fast = shape === "list" ? fastParseYamlList(yaml) : fastParseYamlMapping(yaml, 100);
  if (fast === undefined) return false;
  const full =
    shape === "list"
      ? parseYamlDocument(yaml, { fastPath: false })
      : parseYamlMapping(yaml, { fastPath: false });
  expect(full, `full parser refused what the fast path accepted:\n${yaml}`).toMatchObject({
    ok: true,
  });
  if (full.ok) expect(fast, yaml).toStrictEqual(full.value);
  return true;
}

describe("fast path takes the quoted shapes real frontmatter uses", () => {
  it.each([
    ['description: "Say \\"hi\\" to \\u00e9t\\u00e9"\n', { description: 'Say "hi" to été' }],
    [
      "allowed-tools: ['Read', \"Bash(git:*)\", Write]\n",
      { "allowed-tools": ["Read", "Bash(git:*)", "Write"] },
    ],
  ])("reads %j without the full parser", (yaml, value) => {
    expect(fastParseYamlMapping(yaml, 100)).toEqual(value);
    expect(parseYamlMapping(yaml, { fastPath: false })).toEqual({ ok: true, value });
  });
});

describe("fast path agrees with the full YAML parser", () => {
  it("on every frontmatter block of the corpus, and accepts most skills", () => {
    let skills = 0;
    let acceptedSkills = 0;
    for (const file of corpusFiles()) {
      if (file.kind !== "skill" && file.kind !== "prompt") continue;
      const split = splitFrontmatter(readFileSync(join(CORPUS_DIR, file.path), "utf8"));
      if (split.kind !== "found") continue;
      const accepted = expectAgreement(split.yaml);
      if (file.kind === "skill") {
        skills += 1;
        if (accepted) acceptedSkills += 1;
      }
    }
    // real frontmatter is mostly plain: the fast path is only worth having if it takes most of it
    expect(acceptedSkills / skills).toBeGreaterThan(0.6);
  });

  it.each([
    "name: a\ndescription: b\n",
    "name: a\r\ndescription: b\r\n",
    "",
    "\n\n",
    "# comment\nname: a\n",
    "key:\n",
    "key:\nnext: 1\n",
    "a: true\nb: False\nc: TRUE\nd: yes\ne: no\nf: on\n",
    "a: null\nb: ~\nc: Null\n",
    "a: 1\n",
    "a: 1.0.0\n",
    "a: .5\n",
    "a: 0x1F\n",
    "a: 0o17\n",
    "a: 0b11\n",
    "a: 1_000\n",
    "a: -.inf\n",
    "a: .NaN\n",
    "a: -.nan\n",
    "a: +\n",
    "a: 1e\n",
    "a: -1\n",
    "a: 'single'\n",
    "a: 'it''s'\n",
    "a: ''\n",
    'a: ""\n',
    'a: "double"\n',
    'a: "esc\\n"\n',
    'a: "say \\"hi\\" \\\\ \\/ \\t \\u00e9"\n',
    'a: "bad \\x41 escape"\n',
    'a: "tab\tinside"\n',
    'a: "unescaped " quote"\n',
    'a: "ends escaped\\"\n',
    "a: ['x', \"y\", z]\n",
    "a: ['x, y', z]\n",
    "a: ['it''s', \"\\u00e9\"]\n",
    'a: ["x" , "y"]\n',
    'a: ["x"y]\n',
    'a: "a" # c\n',
    "a: b # c\n",
    "a: b#c\n",
    "a: C#\n",
    "a: b: c\n",
    "a: b:c\n",
    "a: b:\n",
    "a: https://example.com/x?y=1\n",
    "a: <file> [options]\n",
    "a: -flag\n",
    "a: - item\n",
    "a: [x, y]\n",
    "a: [x,y]\n",
    "a: []\n",
    "a: [ ]\n",
    "a: [x, [y]]\n",
    "a: [x, 'y']\n",
    "a: [x, 1]\n",
    "a: [x, true]\n",
    "a: [x,]\n",
    "a: [x] y\n",
    "a: {x: y}\n",
    "a: {x: y, z: 'w'}\n",
    'a: {x: "y, z"}\n',
    'a: {x: "y}"}\n',
    "a: {x: y,}\n",
    "a: {x: y, x: z}\n",
    "a: {x:y}\n",
    "a: {x: {y: z}}\n",
    "a: {x: [y]}\n",
    "a: {x: 1}\n",
    "a: {x: true, y: null}\n",
    "a: {x: y # c}\n",
    "a: {x: y} # c\n",
    "a: {}\n",
    "a: { }\n",
    "a: {true: x}\n",
    "a: {__proto__: x}\n",
    "a: {x: y}z\n",
    "a: b #c\n",
    "a: b  # c: d\n",
    "a: b # c # d\n",
    "a: 1 # one\n",
    "a: true # yes\n",
    "a: # only a comment\n",
    "a:\n  - x # c\n  - y\n",
    "metadata:\n  k: v # c\n",
    "a: |\n  x # kept\n",
    "a: &anchor x\nb: *anchor\n",
    "a: &x 'quoted'\nb: *x\nc: *x\n",
    'a: &x "double"\nb: *x\n',
    "a: &x b # c\nb: *x\n",
    "a: &x true\nb: *x\n",
    "a: &x 1\nb: *x\n",
    "a: &x [y, z]\nb: *x\n",
    "a: &x {y: z}\nb: *x\n",
    "a: &x |\n  block\nb: *x\n",
    "a: &x\nb: *x\n",
    "a: *x\nb: &x y\n",
    "a: &x y\nb: &x z\nc: *x\n",
    "a: &x y\nb: *y\n",
    "a: &x y\nb: *x z\n",
    "a: &x y\nb: *x # c\n",
    "a: &x.y z\nb: *x.y\n",
    "a: &x y z\nb: *x\n",
    "a: & x\n",
    "a: !tag x\n",
    "a: %x\n",
    "a: @x\n",
    "a: `x`\n",
    "a: ...\n",
    "a: x...\n",
    "a: |\n  line one\n  line two\n",
    "a: |-\n  line one\n  line two\n",
    "a: |+\n  line one\n",
    "a: |2\n  line\n",
    "a: >\n  folded one\n  folded two\n\n  next para\n",
    "a: >-\n  folded one\n  folded two\n",
    "a: >\n  one\n\n\n  two\n",
    "a: >\n  one\n    indented\n  two\n",
    "a: |\n  one\n    indented\n  two\n",
    "a: |\n  one\n\n  two\n\n\nb: x\n",
    "a: |\n\n  leading blank\n",
    "a: |\n  text\n   \n  more\n",
    "a: |\nb: x\n",
    "a: |\n  # not a comment\nb: x\n",
    "a:\n- x\n- y\nb: z\n",
    "a:\n  - x\n  - y\nb: z\n",
    "a:\n  - x\n - y\n",
    "a:\n  - x\n    - y\n",
    "a:\n  - x: y\n",
    "a:\n  -\n",
    "a:\n  - 'q'\n  - \"d\"\n",
    "metadata:\n  author: me\n  version: '1.0'\nname: x\n",
    "metadata:\n  author: me\n   extra: no\n",
    "metadata:\n  author: me\n author: you\n",
    "metadata:\n  a: 1\n",
    "metadata:\n  nested:\n    deep: x\n",
    "metadata:\n  a: b\n  a: c\n",
    "a: x\n  continued\n",
    "a:\n  plain multi\n  line\n",
    "a: b\na: c\n",
    "true: x\n",
    "null: x\n",
    "__proto__: x\n",
    "constructor: x\n",
    "a.b: x\n",
    "a b: x\n",
    "a : x\n",
    '"a": x\n',
    "a:x\n",
    "- a\n- b\n",
    "just text\n",
    "  indented: x\n",
    "a: x\n---\n",
    "a: \u00e9t\u00e9 \u2014 \ud83d\ude80\n",
    "a: x\u2028y\n",
    "a: x\u0085y\n",
    "a:\tx\n",
    "a: x\rb: y\n",
  ])("case %j", (yaml) => {
    expectAgreement(yaml);
  });

  it("takes comments after plain values and one-line flow mappings itself (issue 31)", () => {
    for (const yaml of [
      "a: b # c\n",
      'metadata: {author: bench, version: "2.0"}\n',
      "a:\n  - x # c\n",
    ])
      expect(expectAgreement(yaml), yaml).toBe(true);
  });

  it("takes one-line scalars anchored and aliased within the alias budget, and no more", () => {
    const yaml = "description: &d Use it well.\nsummary: *d\nshort: *d\n";
    expect(expectAgreement(yaml)).toBe(true);
    expect(fastParseYamlMapping(yaml, 2)).toEqual({
      description: "Use it well.",
      summary: "Use it well.",
      short: "Use it well.",
    });
    // one alias past the budget is the full parser's refusal, never a fast result
    expect(fastParseYamlMapping(yaml, 1)).toBeUndefined();
    expect(parseYamlMapping(yaml, { maxAliasCount: 1 })).toMatchObject({
      ok: false,
      reason: "alias_limit",
    });
    expect(parseYamlMapping(yaml, { maxAliasCount: 2 })).toMatchObject({ ok: true });
  });

  it("on 5,000 generated documents", () => {
    const random = seededRandom(20261130);
    for (let i = 0; i < 5000; i++) expectAgreement(generateDocument(random));
  });
});

// --- generated documents: plausible frontmatter with a sprinkling of everything awkward ---

const WORDS = [
  "deploy",
  "tests",
  "git",
  "Usage:",
  "C#",
  "a:b",
  "x #y",
  "true",
  "1.0",
  "0x1",
  "-v",
  "[x]",
  "{y}",
  "'q'",
  '"d"',
  "é",
  "…",
  "*",
  "&",
  "!",
  "%",
  "@",
  "|",
  ">",
  "~",
  "null",
  ".5",
  "--",
  "a,b",
  "?",
  "#",
];

function generateDocument(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => pickOne(random, items);
  const phrase = () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(WORDS)).join(
      pick([" ", "", " "]),
    );
  const value = (): string =>
    pick([
      () => ` ${phrase()}`,
      () => ` '${phrase()}'`,
      () => ` "${phrase()}"`,
      () => ` [${phrase()}, ${phrase()}]`,
      () => ` ${phrase()} # ${phrase()}`,
      () => ` {${pick(["k", "j", "name"])}: ${phrase()}, ${pick(["k", "j", "x"])}: ${phrase()}}`,
      () => ` |${pick(["", "-", "+"])}\n  ${phrase()}\n  ${phrase()}\n${pick(["", "\n", "  \n"])}`,
      () => ` >${pick(["", "-"])}\n  ${phrase()}\n${pick(["", "\n"])}  ${phrase()}\n`,
      () => `\n  - ${phrase()}\n  - ${phrase()}`,
      () => `\n- ${phrase()}`,
      () => `\n  k1: ${phrase()}\n  k2: ${phrase()}`,
      () => ` &${pick(["a", "b"])} ${phrase()}`,
      () => ` *${pick(["a", "b"])}`,
      () => "",
    ])();
  const lines: string[] = [];
  const count = 1 + Math.floor(random() * 5);
  for (let i = 0; i < count; i++) {
    const key = pick([
      "name",
      "description",
      "allowed-tools",
      "metadata",
      "x",
      "true",
      "a.b",
      `k${i}`,
    ]);
    lines.push(`${key}:${value()}`.replace(/\n+$/, ""));
    if (random() < 0.1) lines.push(pick(["", "# note", "  # indented note"]));
  }
  return `${lines.join(random() < 0.1 ? "\r\n" : "\n")}\n`;
}

/** The list fast path must either decline or agree exactly with the full parser. */
const expectListAgreement = (yaml: string): boolean => expectAgreement(yaml, "list");

describe("the list fast path (package indexes, issue 31) agrees with the full YAML parser", () => {
  it.each([
    "- kind: skill\n  name: a\n",
    "- kind: skill\n  name: a\n\n- kind: skill\n  name: b\n  triggers: [x, y]\n",
    "# an index\n- name: a # the first\n  # a note\n  description: 'it''s'\n",
    "- name: a\n  name: b\n",
    "- name: a\n - name: b\n",
    "- name: a\n   description: b\n",
    "- name: a\nname: b\n",
    "name: a\n",
    "-  name: a\n",
    "- name: a\n  version: 1.0\n",
    "- name: a\n  version: 1.0.0\n",
    "- name: a\n  meta: {k: v}\n",
    "- name: a\n  description: |\n    text\n",
    "- name: a\n  nested:\n    k: v\n",
    "- a\n- b\n",
    "- name: a\r\n  kind: skill\r\n",
    "---\n- name: a\n",
    "- name: &x a\n  other: *x\n",
    "- name: a\n  true: x\n",
    "-\n  name: a\n",
    "",
  ])("case %j", (yaml) => {
    expectListAgreement(yaml);
  });

  it("takes a plain index itself", () => {
    expect(
      expectListAgreement(
        "- kind: skill\n  name: review\n  sourceUrl: ./skills/review\n  triggers: [review, pr]\n",
      ),
    ).toBe(true);
  });

  it("on 2,000 generated lists", () => {
    const random = seededRandom(20261203);
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        generateDocument(random)
          .split(/\r?\n/)
          .filter((line) => line !== "")
          .map((line, index) => (index === 0 ? `- ${line}` : `  ${line}`))
          .join("\n"),
      );
      if (expectListAgreement(`${items.join("\n")}\n`)) accepted += 1;
    }
    // the generator's awkward shapes send most lists to the full parser, but not all
    expect(accepted).toBeGreaterThan(20);
  });
});
