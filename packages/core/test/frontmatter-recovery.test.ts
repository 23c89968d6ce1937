import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseFrontmatter } from "@skillshelf/core";
import { CORPUS_DIR, corpusFiles } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

// Frontmatter broken the usual way is recovered without the full YAML parser (issue 56, item 3):
// the result must be the one the full parser's error and recovery give, file by file, on every
// real skill and prompt of the corpus and on the spellings below.

/** What a program reads of a parse: the data, and each finding's code, keys and place. */
function outcome(text: string, fastPath: boolean) {
  const result = parseFrontmatter(text, { path: "/p.md", fastPath });
  return result.ok
    ? {
        data: result.data,
        findings: result.diagnostics.map(({ code, line, column, details }) => ({
          code,
          line,
          column,
          details,
        })),
      }
    : { code: result.code };
}

const SPELLINGS = [
  "name: a\ndescription: Use when: the user asks\n",
  "description: Audit it. Usage: /a11y [path]\nargument-hint: [file] | --all\n",
  "argument-hint: [file] | --all\n",
  "name: a\ndescription: first: second: third\nlicense: MIT\n",
  'description: Say "hi": now \\o/\n',
  "description: keep this # a comment: with colon\n",
  "description: a: b\ndescription: c\n",
  "description: a: b\nnested:\n  - [x\n",
  "description: x\r\nother: y: z\r\n",
  "description: - a: b\n",
  "argument-hint: [a] : b\ndescription: c: d\n",
  "argument-hint: [file] | --all\ndescription: Use: this\n",
];

describe("recovering broken frontmatter without the full parser", () => {
  it.each(SPELLINGS)("gives what the full parser gives: %j", (yaml) => {
    const text = `---\n${yaml}---\nbody\n`;
    expect(outcome(text, true)).toEqual(outcome(text, false));
  });

  it("gives what the full parser gives on every skill and prompt of the corpus", () => {
    const files = [...corpusFiles("skill"), ...corpusFiles("prompt")];
    let recovered = 0;
    for (const file of files) {
      const text = readFileSync(join(CORPUS_DIR, file.path), "utf8");
      const fast = outcome(text, true);
      expect(fast, file.path).toEqual(outcome(text, false));
      if ("findings" in fast && fast.findings.some((one) => one.code === "frontmatter_recovered"))
        recovered += 1;
    }
    // the corpus holds real breakage: the comparison is not vacuous
    expect(recovered).toBeGreaterThan(0);
  });
});
