import { join } from "node:path";
import { auditTree } from "@skillshelf/audit";
import { CORPUS_DIR } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

// docs/audit-corpus.md gives the reason for each rule allowed past 2% of the corpus's skills
const EXPLAINED = ["broad-allowed-tools", "env-file-read"];

describe("the audit over the shared corpus (issue 28, item 1: false positives)", () => {
  it("fires no rule on more than 2% of the corpus's skills without a written reason", () => {
    const report = auditTree(join(CORPUS_DIR, "skills"));
    const skillOf = (file: string) =>
      file.replace(/\/(?:SKILL\.md|references\/.*|scripts\/.*)$/, "");
    const skills = new Map<string, Set<string>>();
    for (const finding of report.findings) {
      const set = skills.get(finding.rule) ?? new Set();
      set.add(skillOf(finding.file));
      skills.set(finding.rule, set);
    }
    const over = [...skills].filter(([, set]) => set.size / 190 > 0.02).map(([rule]) => rule);
    expect(over.filter((rule) => !EXPLAINED.includes(rule))).toEqual([]);
    expect(report.diagnostics).toEqual([]);
  });
});
