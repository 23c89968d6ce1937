import type { PackageSource } from "@skillshelf/core";
import {
  folderInPlace,
  isSourcePinned,
  parseSourceAs,
  sourceCommand,
  sourceFolderOnMachine,
  sourcePackageUrl,
  sourcePlace,
  sourceRepository,
} from "@skillshelf/sources";
import { describe, expect, it } from "vitest";

// what policy, the SBOM, `--from` and the CLI ask of a source, each answered by its fetcher
describe("the facts each kind of source gives (issue 55, item 5)", () => {
  it.each<[PackageSource, string, boolean]>([
    [{ type: "git", url: "https://github.com/acme/tools.git" }, "github.com/acme/tools", false],
    [
      { type: "git", url: "git@github.com:acme/tools.git", ref: "a".repeat(40) },
      "github.com/acme/tools",
      true,
    ],
    [
      { type: "git", url: "https://github.com.evil.invalid/a/b" },
      "github.com.evil.invalid/a/b",
      false,
    ],
    [{ type: "npm", name: "@acme/skills", range: "1.2.3" }, "npm:@acme/skills", true],
    [{ type: "npm", name: "@acme/skills", range: "^1.2.3" }, "npm:@acme/skills", false],
    [
      { type: "oci", url: "oci://ghcr.io/acme/skills", digest: `sha256:${"b".repeat(64)}` },
      "ghcr.io/acme/skills",
      true,
    ],
    [{ type: "oci", url: "oci://ghcr.io/acme/skills", ref: "1.0.0" }, "ghcr.io/acme/skills", false],
    [
      { type: "archive", url: "https://files.example.invalid/s.tar.gz", sha256: "c".repeat(64) },
      "files.example.invalid/s.tar.gz",
      true,
    ],
    [
      { type: "well-known", url: "https://skills.example.invalid" },
      "skills.example.invalid",
      false,
    ],
    [{ type: "mcp", url: "https://mcp.example.invalid/mcp" }, "mcp.example.invalid/mcp", false],
    [{ type: "local", path: "/work/skills" }, "local:/work/skills", true],
  ])("%j is at %s, pinned %s", (source, place, pinned) => {
    expect(sourcePlace(source)).toBe(place);
    expect(isSourcePinned(source)).toBe(pinned);
  });

  it("gives package URL parts, repositories, commands and folders only where the kind has them", () => {
    expect(sourcePackageUrl({ type: "npm", name: "@acme/skills" }, "1.2.3@sha512-x")).toEqual({
      type: "npm",
      namespace: "@acme",
      name: "skills",
      version: "1.2.3",
    });
    expect(
      sourcePackageUrl(
        { type: "git", url: "https://github.com/acme/tools.git", path: "skills/a" },
        "abc",
      ),
    ).toEqual({
      type: "github",
      namespace: "acme",
      name: "tools",
      version: "abc",
      subpath: "skills/a",
    });
    expect(
      sourcePackageUrl({ type: "git", url: "https://git.example.invalid/t.git" }, "abc"),
    ).toBeUndefined();
    expect(sourcePackageUrl({ type: "local", path: "/x" }, undefined)).toBeUndefined();
    expect(sourceRepository({ type: "git", url: "https://git.example.invalid/t.git" })).toBe(
      "https://git.example.invalid/t.git",
    );
    expect(sourceRepository({ type: "npm", name: "x" })).toBeUndefined();
    expect(sourceCommand({ type: "mcp", url: "stdio:node server.js" })).toBe("node server.js");
    expect(sourceCommand({ type: "mcp", url: "https://mcp.example.invalid/mcp" })).toBeUndefined();
    expect(sourceFolderOnMachine({ type: "git", url: "file:///srv/repos/skills.git" })).toBe(
      "/srv/repos/skills.git",
    );
    expect(
      sourceFolderOnMachine({ type: "git", url: "https://github.com/a/b.git" }),
    ).toBeUndefined();
    expect(folderInPlace({ type: "local", path: "/work/skills" })).toBe("/work/skills");
    expect(parseSourceAs("oci", "oci://ghcr.io/acme/skills:1.0.0", "/")).toEqual({
      type: "oci",
      url: "oci://ghcr.io/acme/skills",
      ref: "1.0.0",
    });
    expect(parseSourceAs("oci", "git+https://example.invalid/r.git", "/")).toBeUndefined();
  });
});
