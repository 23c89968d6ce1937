import { isPackageId, isSemver, parseRequirementRef } from "@skillshelf/core";
import { describe, expect, it } from "vitest";

describe("isPackageId", () => {
  it.each([
    ["pdf-tools", true],
    ["a", true],
    ["0", true],
    ["v1.2", true],
    ["a".repeat(64), true],
    // refused
    ["a".repeat(65), false],
    ["", false],
    ["-a", false],
    ["a-", false],
    [".a", false],
    ["a--b", false],
    ["a..b", false],
    ["A", false],
    ["a_b", false],
    ["a/b", false],
    ["state.json", false],
  ])("%s: %s", (id, expected) => {
    expect(isPackageId(id)).toBe(expected);
  });
});

describe("parseRequirementRef", () => {
  it.each([
    ["skill:pdf", { kind: "skill", name: "pdf" }],
    ["plugin:review.tools", { kind: "plugin", name: "review.tools" }],
    ["fleet:ship", { kind: "fleet", name: "ship" }],
    ["theme:x", undefined],
    ["skill:", undefined],
    ["skill:Pdf", undefined],
    ["skill:a--b", undefined],
    ["pdf", undefined],
    [" skill:pdf", undefined],
  ])("%s", (text, expected) => {
    expect(parseRequirementRef(text)).toEqual(expected);
  });
});

describe("isSemver", () => {
  it.each([
    ["1.2.3", true],
    ["0.0.0", true],
    ["1.0.0-rc.1+build.5", true],
    ["1.0.0-alpha-1", true],
    ["01.2.3", false],
    ["1.2", false],
    ["^1.2.3", false],
    ["1.2.3-01", false],
    ["v1.2.3", false],
    ["", false],
  ])("%s: %s", (version, expected) => {
    expect(isSemver(version)).toBe(expected);
  });
});
