import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testdir } from "../src/index.js";

describe("testdir", () => {
  let inTest = "";
  it("writes the tree into a fresh folder", () => {
    inTest = testdir({ "a/SKILL.md": "x" });
    expect(existsSync(join(inTest, "a", "SKILL.md"))).toBe(true);
  });

  it("removes a folder made in a test when that test finishes", () => {
    expect(inTest).not.toBe("");
    expect(existsSync(inTest)).toBe(false);
  });

  let collected = "";
  describe("a folder made while a suite is collected", () => {
    collected = testdir({ "b.md": "y" });
    it("is there for the suite's tests", () => {
      expect(existsSync(join(collected, "b.md"))).toBe(true);
    });
  });

  it("is removed when that suite finishes", () => {
    expect(collected).not.toBe("");
    expect(existsSync(collected)).toBe(false);
  });
});
