import type { PackageSource } from "@skillshelf/core";
import {
  describeSource,
  folderInPlace,
  isPinnedTo,
  SOURCE_FETCHERS,
  sourceAtRef,
  sourcePinnedAt,
  sourceWithin,
} from "@skillshelf/sources";
import { describe, expect, it } from "vitest";

const HASH = "a".repeat(40);
const local: PackageSource = { type: "local", path: "/work/skills" };
const git: PackageSource = { type: "git", url: "https://example.com/team/skills.git", ref: "main" };
const archive: PackageSource = { type: "archive", url: "https://example.com/kit.tar.gz" };

describe("the record of source fetchers (issue 26, item 2)", () => {
  it("has one fetcher for every kind of source", () => {
    expect(Object.keys(SOURCE_FETCHERS).sort()).toEqual([
      "archive",
      "git",
      "local",
      "npm",
      "oci",
      "well-known",
    ]);
  });

  it("names each source as a user types it, its folder and ref included", () => {
    expect(describeSource(local)).toBe("/work/skills");
    expect(describeSource(sourceWithin(git, "skills/pdf"))).toBe(
      "https://example.com/team/skills.git//skills/pdf#main",
    );
    expect(describeSource(sourceWithin(sourceWithin(archive, "kit"), "pdf"))).toBe(
      "https://example.com/kit.tar.gz//kit/pdf",
    );
    expect(sourceWithin(local, "skills/pdf")).toEqual({
      type: "local",
      path: "/work/skills/skills/pdf",
    });
    expect(sourceWithin(git, ".")).toBe(git);
  });

  it("moves and pins only what has refs and commits", () => {
    expect(sourceAtRef(git, "v2")).toEqual({ ...git, ref: "v2" });
    expect(sourceAtRef(archive, "v2")).toBe(archive);
    expect(sourcePinnedAt(git, HASH)).toEqual({ ...git, ref: HASH });
    expect(sourcePinnedAt(local, HASH)).toBe(local);
    expect(isPinnedTo({ ...git, ref: HASH }, HASH)).toBe(true);
    expect(isPinnedTo(git, HASH)).toBe(false);
    expect(isPinnedTo(local, HASH)).toBe(false);
  });

  it("reads only a local folder where it is", () => {
    expect(folderInPlace(local)).toBe("/work/skills");
    expect(folderInPlace(git)).toBeUndefined();
    expect(folderInPlace(archive)).toBeUndefined();
  });
});
