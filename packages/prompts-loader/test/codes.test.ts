import { CODES } from "@skillshelf/core";
import { loadPromptTemplates } from "@skillshelf/prompts-loader";
import { copyCorpus, link, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("the codes loadPromptTemplates reports (issue 30, item 8)", () => {
  it("are its own, the resolver's and core's only, over the corpus and hostile trees", () => {
    const hostile = testdir({
      "ok.md": "---\ndescription: Fine.\n---\nDo $1.\n",
      "team/ok.md": "Same name below a folder.\n",
      "bad.md": "---\ndescription: [unclosed\n---\nbody\n",
      "escape.md": link("/etc/hostname"),
      loop: link("."),
    });
    const roots = [copyCorpus("prompts"), hostile].map((path, index) => ({
      path,
      scope: "user" as const,
      source: "skillshelf",
      origin: `root-${index}`,
      precedence: 30,
      trust: "trusted" as const,
    }));
    const { diagnostics } = loadPromptTemplates({ cwd: hostile, home: hostile, env: {}, roots });
    expect(diagnostics.length).toBeGreaterThan(2);
    for (const diagnostic of diagnostics)
      expect(["prompts-loader", "collision", "core"], diagnostic.code).toContain(
        CODES[diagnostic.code].owner,
      );
  });
});
