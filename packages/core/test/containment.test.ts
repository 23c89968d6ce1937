import { join } from "node:path";
import {
  isInside,
  normalizeRelativePath,
  realpathOrUndefined,
  resolveContained,
} from "@skillshelf/core";
import { link, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("isInside", () => {
  it.each([
    ["/a", "/a", true],
    ["/a", "/a/b", true],
    ["/a", "/ab", false],
    ["/a/", "/a/b", true],
    ["/", "/anything", true],
    ["/a/b", "/a", false],
  ])("%s contains %s: %s", (anchor, target, expected) => {
    expect(isInside(anchor, target)).toBe(expected);
  });
});

describe("resolveContained", () => {
  it("follows links and reports where they lead", () => {
    const outside = testdir({ "secret.md": "x" });
    const root = testdir({
      "skills/real/SKILL.md": "x",
      "skills/inner": link("real"),
      "skills/escape": link(outside),
      "skills/dangling": link("nowhere"),
      "skills/loop": link("loop"),
    });
    const anchor = join(root, "skills");
    expect(resolveContained(join(anchor, "inner"), anchor)).toEqual({
      status: "inside",
      real: join(anchor, "real"),
    });
    expect(resolveContained(join(anchor, "escape", "secret.md"), anchor)).toEqual({
      status: "outside",
      real: join(outside, "secret.md"),
    });
    expect(resolveContained(join(anchor, "dangling"), anchor)).toEqual({ status: "missing" });
    expect(resolveContained(join(anchor, "loop"), anchor)).toEqual({ status: "missing" });
    expect(realpathOrUndefined(join(root, "absent"))).toBeUndefined();
  });
});

describe("normalizeRelativePath", () => {
  it.each([
    ["skills", "skills"],
    ["./skills/", "skills"],
    ["a/./b//c", "a/b/c"],
    ["a/../b", "b"],
    [".", "."],
    ["./", "."],
    ["", "."],
    ["..", undefined],
    ["../x", undefined],
    ["a/../../x", undefined],
    ["/etc", undefined],
    ["C:/x", undefined],
    ["a\\b", undefined],
  ])("%j is %j", (text, expected) => {
    expect(normalizeRelativePath(text)).toBe(expected);
  });
});
