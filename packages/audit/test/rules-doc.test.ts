import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AUDIT_RULES, AUDIT_RULES_VERSION } from "@skillshelf/audit";
import { describe, expect, it } from "vitest";

const DOC = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "docs",
  "audit-rules.md",
);

/** docs/audit-rules.md as the rule table makes it. */
function renderRules(): string {
  return [
    "# Audit rules",
    "",
    `What \`skillshelf audit\` looks for (rule table version ${AUDIT_RULES_VERSION}). Nothing is run and no link`,
    "is followed; line rules read text files, frontmatter rules a `SKILL.md`'s frontmatter, file rules",
    "a file's first bytes and mode. Generated from `AUDIT_RULES` in `packages/audit/src/rules.ts`; a",
    "test fails when this file differs (run `UPDATE_AUDIT_RULES=1 pnpm vitest run",
    "packages/audit/test/rules-doc.test.ts` to rewrite it). What each finds over real skills:",
    "[audit-corpus.md](audit-corpus.md).",
    "",
    "| rule | severity | reads | why | what to do |",
    "|---|---|---|---|---|",
    ...AUDIT_RULES.map(
      (rule) =>
        `| \`${rule.id}\` | ${rule.severity} | ${rule.match.on} | ${rule.rationale} | ${rule.remedy} |`,
    ),
    "",
  ].join("\n");
}

describe("docs/audit-rules.md (issue 28, item 7)", () => {
  it("is the rule table, exactly as generated", () => {
    const rendered = renderRules();
    if (process.env.UPDATE_AUDIT_RULES === "1") writeFileSync(DOC, rendered);
    expect(readFileSync(DOC, "utf8")).toBe(rendered);
  });
});
