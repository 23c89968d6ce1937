import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { CODES } from "@skillshelf/core";
import { loadSkills } from "@skillshelf/skills-loader";
import { copyCorpus, link, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const OWNERS = new Set(["skills-loader", "collision", "core"]);

describe("the codes loadSkills reports (issue 30, item 8)", () => {
  it("are its own, the resolver's and core's only, over the corpus and hostile trees", () => {
    const hostile = testdir({
      "ok/SKILL.md": skillFile("ok", "Fine."),
      "clash/SKILL.md": skillFile("ok", "Same name."),
      "yaml/SKILL.md": "---\nname: yaml\ndescription: [unclosed\n---\nbody\n",
      "noname/SKILL.md": "---\ndescription: no name\n---\n",
      escape: link("/etc"),
      loop: link("."),
      "deep/a/b/c/d/e/f/g/h/i/j/SKILL.md": skillFile("j", "Deep."),
      ".dot/hidden/SKILL.md": skillFile("hidden", "Dot."),
    });
    execFileSync("mkfifo", [join(hostile, "fifo.md")]);
    const roots = [copyCorpus("skills"), hostile].map((path, index) => ({
      path,
      scope: "user" as const,
      source: "skillshelf",
      origin: `root-${index}`,
      precedence: 30,
      trust: "trusted" as const,
    }));
    const { diagnostics } = loadSkills({ cwd: hostile, home: hostile, env: {}, roots });
    expect(diagnostics.length).toBeGreaterThan(5);
    for (const diagnostic of diagnostics) {
      expect(OWNERS.has(CODES[diagnostic.code].owner), diagnostic.code).toBe(true);
    }
  });
});
