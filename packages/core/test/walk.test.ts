import { join } from "node:path";
import { anchorRoot, findMarkdownFiles, isTrustedRoot, type ResourceRoot } from "@skillshelf/core";
import { link, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const root = (path: string, overrides: Partial<ResourceRoot> = {}) => ({
  path,
  scope: "user" as const,
  containment: undefined,
  ...overrides,
});

describe("findMarkdownFiles", () => {
  it("lists markdown at the top level, or at every level when recursive, sorted and skipping dot-folders", () => {
    const dir = testdir({
      "b.md": "b",
      "a.MD": "a",
      "notes.txt": "not markdown",
      "team/review.md": "r",
      "team/deep/x.md": "x",
      ".git/hooks.md": "hidden",
      "node_modules/pkg/readme.md": "dependency",
    });
    expect(
      findMarkdownFiles(root(dir), { recursive: false }).files.map((file) => file.relativePath),
    ).toEqual(["a.MD", "b.md"]);
    expect(
      findMarkdownFiles(root(dir), { recursive: true }).files.map((file) => file.relativePath),
    ).toEqual(["a.MD", "b.md", "team/deep/x.md", "team/review.md"]);
  });

  it("follows links inside the anchor once, refuses links out of it, and reports broken ones", () => {
    const outside = testdir({ "secret.md": "s", "folder/inner.md": "i" });
    const dir = testdir({
      "shared/one.md": "1",
      alias: link("shared"),
      "escape.md": link(join(outside, "secret.md")),
      "escape-dir": link(join(outside, "folder")),
      "broken.md": link("nowhere.md"),
      "shared/loop": link(".."),
    });
    const walk = findMarkdownFiles(root(dir), { recursive: true });
    expect(walk.files.map((file) => [file.relativePath, file.realPath])).toEqual([
      ["alias/one.md", join(dir, "shared/one.md")],
      ["shared/one.md", join(dir, "shared/one.md")],
    ]);
    expect(walk.followedLinks).toBe(true);
    expect(
      walk.diagnostics.map((diagnostic) => [
        diagnostic.code,
        diagnostic.path?.slice(dir.length + 1),
      ]),
    ).toEqual([
      ["broken_link", "broken.md"],
      ["symlink_escape", "escape-dir"],
      ["symlink_escape", "escape.md"],
    ]);
  });

  it("treats a file root as its one file and a missing root as nothing", () => {
    const dir = testdir({ "one.md": "1" });
    expect(
      findMarkdownFiles(root(join(dir, "one.md")), { recursive: true }).files.map(
        (file) => file.relativePath,
      ),
    ).toEqual(["one.md"]);
    expect(findMarkdownFiles(root(join(dir, "absent")), { recursive: true })).toEqual({
      files: [],
      diagnostics: [],
      rootReal: undefined,
      followedLinks: false,
    });
  });
});

describe("anchorRoot", () => {
  it("anchors inside the containment folder, lets user roots live elsewhere, refuses project roots that leave", () => {
    const elsewhere = testdir({ "x.md": "x" });
    const project = testdir({ prompts: link(elsewhere), inner: null });
    expect(
      anchorRoot(root(join(project, "inner"), { scope: "project", containment: project })),
    ).toEqual({ status: "ok", real: join(project, "inner"), anchor: project });
    expect(
      anchorRoot(root(join(project, "prompts"), { scope: "user", containment: project })),
    ).toEqual({ status: "ok", real: elsewhere, anchor: elsewhere });
    expect(
      anchorRoot(root(join(project, "prompts"), { scope: "project", containment: project })),
    ).toMatchObject({
      status: "refused",
      diagnostic: { code: "symlink_escape", path: join(project, "prompts") },
    });
    expect(anchorRoot(root(join(project, "absent")))).toEqual({ status: "missing" });
  });
});

describe("isTrustedRoot", () => {
  it.each([
    ["trusted", false, true],
    ["foreign", false, false],
    ["foreign", true, true],
    ["untrusted", true, false],
  ] as const)("%s with trustImports %s is %s", (trust, trustImports, expected) => {
    expect(isTrustedRoot({ trust }, trustImports)).toBe(expected);
  });
});
