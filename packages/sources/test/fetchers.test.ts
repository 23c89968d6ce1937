import type { PackageSource } from "@skillshelf/core";
import {
  describeSource,
  folderInPlace,
  isPinnedTo,
  parseSourceSpec,
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
      "mcp",
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

describe("MCP servers as sources (issue 29, item 2)", () => {
  const parsed = (text: string) => parseSourceSpec(text, "/work");
  it("reads a command or an https endpoint, with the skill's path, and names them back as typed", () => {
    const stdio = parsed(
      "mcp+stdio:npx -y @acme/skills-server --flag 'two words'#path=billing/refunds",
    );
    expect(stdio).toEqual({
      ok: true,
      source: {
        type: "mcp",
        url: "stdio:npx -y @acme/skills-server --flag 'two words'",
        path: "billing/refunds",
      },
    });
    const https = parsed("mcp+https://skills.example.com/mcp//refunds");
    expect(https).toEqual({
      ok: true,
      source: { type: "mcp", url: "https://skills.example.com/mcp", path: "refunds" },
    });
    for (const result of [stdio, https])
      if (result.ok) expect(parsed(describeSource(result.source))).toEqual(result);
    expect(sourceWithin({ type: "mcp", url: "https://skills.example.com/mcp" }, "a/b")).toEqual({
      type: "mcp",
      url: "https://skills.example.com/mcp",
      path: "a/b",
    });
  });

  it("refuses a missing command, plain http to another host, credentials and a path out", () => {
    expect(parsed("mcp+stdio:   ")).toMatchObject({ ok: false, code: "source_invalid" });
    expect(parsed("mcp+http://skills.example.com/mcp")).toMatchObject({
      ok: false,
      code: "source_insecure",
    });
    expect(parsed("mcp+https://user:secret@skills.example.com/mcp")).toMatchObject({
      ok: false,
      code: "source_invalid",
    });
    expect(parsed("mcp+https://skills.example.com/mcp//../x")).toMatchObject({
      ok: false,
      code: "source_invalid",
    });
    expect(parsed("mcp+ftp://skills.example.com/")).toMatchObject({
      ok: false,
      code: "source_invalid",
    });
    expect(parsed("mcp+http://127.0.0.1:7391/mcp")).toMatchObject({ ok: true });
  });
});
