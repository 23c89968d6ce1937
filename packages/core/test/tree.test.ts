import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  copyTree,
  digestTree,
  isSkillshelfError,
  restampTree,
  stampTree,
  TREE_READ_BYTES,
  type TreeFileRead,
} from "@skillshelf/core";
import { CORPUS_DIR, link, type Tree, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { treeFrames } from "../src/_tree-frames.js";

const PACKAGE: Tree = {
  "plugin.json": '{"name":"demo","version":"1.0.0"}\n',
  "skills/pdf/SKILL.md": "---\nname: pdf\ndescription: PDFs\n---\nbody\n",
  "skills/pdf/scripts/run.sh": { content: "#!/bin/sh\necho hi\n", mode: 0o755 },
  "skills/pdf/reference.md": "ref\n",
  "skills/alias": link("pdf"),
  "assets/empty": null,
};

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return isSkillshelfError(error) ? error.code : `not a SkillshelfError: ${String(error)}`;
  }
  return undefined;
}

describe("digestTree", () => {
  const base = () => digestTree(testdir(PACKAGE)).digest;

  it("is a sha256 that counts files and bytes", () => {
    const result = digestTree(testdir(PACKAGE));
    expect(result.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(result.files).toBe(4);
    expect(result.bytes).toBeGreaterThan(0);
  });

  it("is the same for the same tree anywhere, whatever its times and non-exec permission bits", () => {
    const expected = base();
    const root = testdir(PACKAGE);
    utimesSync(join(root, "plugin.json"), new Date(0), new Date(0));
    chmodSync(join(root, "skills/pdf/reference.md"), 0o600);
    chmodSync(join(root, "skills/pdf/scripts/run.sh"), 0o700);
    expect(digestTree(root).digest).toBe(expected);
    const moved = join(testdir(), "elsewhere");
    renameSync(root, moved);
    expect(digestTree(moved).digest).toBe(expected);
  });

  it("is the documented frames, hashed in order, for files of any size", () => {
    const big = "b".repeat(65_537);
    const dir = testdir({
      "a.md": "x",
      "sub/big.bin": big,
      "sub/run": { content: "", mode: 0o755 },
    });
    const frame = (kind: string, path: string, mode: string, payload: string) =>
      `${kind}\0${path}\0${mode}\0${Buffer.byteLength(payload)}\0${payload}\0`;
    const expected = createHash("sha256")
      .update(frame("directory", "", "", ""))
      .update(frame("file", "a.md", "-", "x"))
      .update(frame("directory", "sub", "", ""))
      .update(frame("file", "sub/big.bin", "-", big))
      .update(frame("file", "sub/run", "x", ""))
      .digest("hex");
    expect(digestTree(dir)).toEqual({ digest: expected, files: 3, bytes: 65_538 });
  });

  it("does not depend on the order files were created in", () => {
    const reversed = Object.fromEntries(Object.entries(PACKAGE).reverse());
    expect(digestTree(testdir(reversed)).digest).toBe(base());
  });

  it.each<[string, (root: string) => void]>([
    [
      "renaming a file",
      (root) => renameSync(join(root, "skills/pdf/reference.md"), join(root, "skills/pdf/ref.md")),
    ],
    ["renaming a folder", (root) => renameSync(join(root, "assets"), join(root, "asset"))],
    ["changing a byte", (root) => writeFileSync(join(root, "skills/pdf/reference.md"), "reg\n")],
    [
      "setting the executable bit",
      (root) => chmodSync(join(root, "skills/pdf/reference.md"), 0o755),
    ],
    [
      "clearing the executable bit",
      (root) => chmodSync(join(root, "skills/pdf/scripts/run.sh"), 0o644),
    ],
    [
      "changing a link target",
      (root) => {
        rmSync(join(root, "skills/alias"));
        symlinkSync("pdf/", join(root, "skills/alias"));
      },
    ],
    ["adding an empty folder", (root) => mkdirSync(join(root, "assets/more"))],
    ["removing an empty folder", (root) => rmSync(join(root, "assets/empty"), { recursive: true })],
    ["adding an empty file", (root) => writeFileSync(join(root, "assets/empty/.keep"), "")],
    [
      "turning a file into a link to identical bytes",
      (root) => {
        rmSync(join(root, "skills/pdf/reference.md"));
        symlinkSync("SKILL.md", join(root, "skills/pdf/reference.md"));
      },
    ],
    [
      "moving bytes between two files",
      (root) => {
        writeFileSync(join(root, "plugin.json"), '{"name":"demo","version":"1.0.0"}\nref\n');
        writeFileSync(join(root, "skills/pdf/reference.md"), "");
      },
    ],
  ])("changes when %s", (_name, change) => {
    const root = testdir(PACKAGE);
    change(root);
    expect(digestTree(root).digest).not.toBe(base());
  });

  it.each<[string, Tree, string]>([
    ["an absolute link", { "a.md": link("/etc/passwd") }, "tree_link_escape"],
    [
      "a relative link out of the tree",
      { "sub/a.md": link("../../outside.md") },
      "tree_link_escape",
    ],
    ["a link to the tree's parent", { up: link("..") }, "tree_link_escape"],
  ])("refuses %s", (_name, tree, code) => {
    expect(codeOf(() => digestTree(testdir(tree)))).toBe(code);
  });

  it("accepts a dangling link that stays inside the tree", () => {
    expect(digestTree(testdir({ "a.md": link("missing.md") })).files).toBe(0);
  });

  it("refuses a FIFO", () => {
    const root = testdir({ "a.md": "x" });
    execFileSync("mkfifo", [join(root, "pipe")]);
    expect(codeOf(() => digestTree(root))).toBe("tree_special_file");
  });

  it("reads a file the walk listed only as the regular file it was, never through a link swapped in", () => {
    // what the walk saw: a file; what is there when it is read: a link out of the tree, or nothing
    const root = testdir({ "a.md": "x", outside: "secret" });
    symlinkSync(join(root, "outside"), join(root, "swapped"));
    for (const name of ["swapped", "gone"]) {
      const frames = treeFrames();
      const node = { kind: "file", path: join(root, name), relative: name } as const;
      expect(codeOf(() => frames.file(node))).toBe("tree_changed");
    }
    expect(treeFrames().file({ kind: "file", path: join(root, "a.md"), relative: "a.md" })).toBe(
      false,
    );
  });

  it("refuses a missing root, a file and a symlinked root", () => {
    const root = testdir({ "a.md": "x", alias: link(".") });
    expect(codeOf(() => digestTree(join(root, "absent")))).toBe("tree_missing");
    expect(codeOf(() => digestTree(join(root, "a.md")))).toBe("tree_not_directory");
    const other = testdir({ pkg: null });
    symlinkSync(join(other, "pkg"), join(other, "linked"));
    expect(codeOf(() => digestTree(join(other, "linked")))).toBe("tree_not_directory");
  });
});

describe("digestTree's read", () => {
  it("hands over every regular file once, in walk order, with its bytes while one read holds them", () => {
    const big = "b".repeat(TREE_READ_BYTES + 1);
    const dir = testdir({
      ...PACKAGE,
      "assets/big.bin": big,
      "assets/exact.bin": "e".repeat(TREE_READ_BYTES),
      "assets/none.txt": "",
    });
    const seen: [string, string | undefined, boolean][] = [];
    const read = digestTree(dir, {
      read: (file) => {
        expect(file.path).toBe(join(dir, file.relative));
        seen.push([file.relative, file.bytes?.toString("utf8"), file.executable]);
      },
    });
    expect(read.digest).toBe(digestTree(dir).digest);
    expect(seen).toEqual([
      ["assets/big.bin", undefined, false],
      ["assets/exact.bin", "e".repeat(TREE_READ_BYTES), false],
      ["assets/none.txt", "", false],
      ["plugin.json", PACKAGE["plugin.json"], false],
      ["skills/pdf/SKILL.md", PACKAGE["skills/pdf/SKILL.md"], false],
      ["skills/pdf/reference.md", "ref\n", false],
      ["skills/pdf/scripts/run.sh", "#!/bin/sh\necho hi\n", true],
    ]);
  });
});

describe("copyTree's read", () => {
  it("hands over what digestTree's read of the copy hands over, added files among them", () => {
    const from = testdir({ ...PACKAGE, "assets/big.bin": "b".repeat(TREE_READ_BYTES + 1) });
    const to = join(testdir(), "copy");
    // each file's bytes kept past the call, which the next read overwrites
    const seen = (into: TreeFileRead[]) => (file: TreeFileRead) =>
      into.push({ ...file, bytes: file.bytes && Buffer.from(file.bytes) });
    const copied: TreeFileRead[] = [];
    copyTree(from, to, { files: { "plugin.json": "{}\n" }, read: seen(copied) });
    const digested: TreeFileRead[] = [];
    digestTree(to, { read: seen(digested) });
    expect(copied).toEqual(digested);
    expect(copied.map((file) => file.relative)).toContain("plugin.json");
  });
});

describe("copyTree", () => {
  it("copies a tree so that its digest is unchanged", () => {
    const from = testdir(PACKAGE);
    const to = join(testdir(), "copy");
    copyTree(from, to);
    expect(digestTree(to).digest).toBe(digestTree(from).digest);
  });

  it("returns the digest of what it wrote, equal to digesting the copy", () => {
    const big = "x".repeat(200_000);
    for (const from of [
      testdir(PACKAGE),
      testdir({ "big.bin": big, "empty.md": "", "bin/tool": { content: big, mode: 0o755 } }),
      // sizes around the read buffer's
      testdir({ a: "a".repeat(65_535), b: "b".repeat(65_536), c: "c".repeat(65_537) }),
      join(CORPUS_DIR, "skills"),
    ]) {
      const to = join(testdir(), "copy");
      const copied = copyTree(from, to);
      expect(copied).toEqual(digestTree(to));
      expect(copied).toEqual(digestTree(from));
    }
  });

  it("writes the added top-level files in place of entries of their names, digested with the copy", () => {
    const from = testdir({
      ...PACKAGE,
      "plugin.json": link("skills/pdf/SKILL.md"),
      "skills/plugin.json": "kept: only the top level is replaced\n",
    });
    const files = { "plugin.json": '{"name":"added"}\n', "a.md": "first\n", "zz.md": "last\n" };
    const to = join(testdir({}), "copy");
    const copied = copyTree(from, to, { files });
    expect(copied).toEqual(digestTree(to));
    expect(readFileSync(join(to, "plugin.json"), "utf8")).toBe(files["plugin.json"]);
    expect(lstatSync(join(to, "plugin.json")).isFile()).toBe(true);
    expect(readFileSync(join(to, "skills", "plugin.json"), "utf8")).toContain("kept");
    expect(readdirSync(to).sort()).toEqual(["a.md", "assets", "plugin.json", "skills", "zz.md"]);
  });

  it("stamps the copy as stampTree of it does, so a restamp holds until the copy changes", () => {
    const from = testdir({ ...PACKAGE, ".git/HEAD": "ref", "b/c/d.md": "deep\n" });
    const to = join(testdir(), "copy");
    const files = { "plugin.json": '{"name":"added"}\n', "a.md": "first\n" };
    const copied = copyTree(from, to, { files, stamp: true, skip: (name) => name === ".git" });
    expect(copied.stamp).toEqual(stampTree(to));
    expect(copied.stamp?.nodes).toContain("a.md");
    expect(copied.stamp?.nodes).not.toContain(".git");
    expect(restampTree(to, copied.stamp?.nodes ?? [])).toBe(copied.stamp?.stamp);
    // a tree moved whole keeps its stamp; a change inside it does not
    const moved = join(testdir(), "moved");
    renameSync(to, moved);
    expect(restampTree(moved, copied.stamp?.nodes ?? [])).toBe(copied.stamp?.stamp);
    writeFileSync(join(moved, "b", "c", "d.md"), "deeper\n");
    expect(restampTree(moved, copied.stamp?.nodes ?? [])).not.toBe(copied.stamp?.stamp);
    expect(copyTree(from, join(testdir(), "plain")).stamp).toBeUndefined();
  });

  it("skips the named entries at every depth", () => {
    const from = testdir({ "a.md": "x", ".git/HEAD": "ref", "sub/.git/HEAD": "ref" });
    const to = join(testdir(), "copy");
    copyTree(from, to, { skip: (name) => name === ".git" });
    expect(readdirSync(to).sort()).toEqual(["a.md", "sub"]);
    expect(readdirSync(join(to, "sub"))).toEqual([]);
  });

  it("leaves nothing behind when it refuses a tree", () => {
    const from = testdir({ "a.md": "x", "z/escape": link("../../x") });
    const parent = testdir();
    expect(codeOf(() => copyTree(from, join(parent, "copy")))).toBe("tree_link_escape");
    expect(readdirSync(parent)).toEqual([]);
  });

  it("never writes into or removes a destination that already exists", () => {
    const from = testdir({ "a.md": "x" });
    const existing = testdir({ "mine.md": "keep" });
    expect(() => copyTree(from, existing)).toThrow(/EEXIST/);
    expect(readdirSync(existing)).toEqual(["mine.md"]);
  });
});

describe("stampTree and restampTree", () => {
  it("are unchanged for an untouched tree and change with any write, entry or mode", () => {
    const dir = testdir({ "SKILL.md": "skill\n", "refs/api.md": "api\n" });
    const stamp = stampTree(dir);
    expect(stamp?.nodes).toEqual(["", "SKILL.md", "refs", "refs/api.md"]);
    expect(stampTree(dir)).toEqual(stamp);
    expect(restampTree(dir, stamp?.nodes ?? [])).toBe(stamp?.stamp);
    const changes: (() => void)[] = [
      () => writeFileSync(join(dir, "refs", "api.md"), "api\n"),
      () => writeFileSync(join(dir, "refs", "new.md"), "new\n"),
      () => chmodSync(join(dir, "SKILL.md"), 0o755),
      () => renameSync(join(dir, "refs", "new.md"), join(dir, "refs", "old.md")),
      () => rmSync(join(dir, "refs", "old.md")),
      () => writeFileSync(join(dir, "later.md"), "later\n"),
    ];
    let before = stamp as NonNullable<typeof stamp>;
    for (const change of changes) {
      change();
      // from the nodes the last stamp covered, without listing a folder: changed all the same
      expect(restampTree(dir, before.nodes)).not.toBe(before.stamp);
      const after = stampTree(dir) as NonNullable<typeof stamp>;
      expect(after.stamp).not.toBe(before.stamp);
      expect(restampTree(dir, after.nodes)).toBe(after.stamp);
      before = after;
    }
    rmSync(join(dir, "refs"), { recursive: true });
    expect(restampTree(dir, before.nodes)).toBeUndefined();
  });

  it("hold for a tree moved whole, and not for another tree put in its place", () => {
    const parent = testdir({
      "a/SKILL.md": "skill\n",
      "a/refs/api.md": "api\n",
      "b/SKILL.md": "skill\n",
      "b/refs/api.md": "api\n",
    });
    const stamp = stampTree(join(parent, "a")) as NonNullable<ReturnType<typeof stampTree>>;
    renameSync(join(parent, "a"), join(parent, "moved"));
    expect(restampTree(join(parent, "moved"), stamp.nodes)).toBe(stamp.stamp);
    renameSync(join(parent, "b"), join(parent, "a"));
    expect(restampTree(join(parent, "a"), stamp.nodes)).not.toBe(stamp.stamp);
    chmodSync(join(parent, "moved"), 0o700);
    expect(restampTree(join(parent, "moved"), stamp.nodes)).not.toBe(stamp.stamp);
  });

  it("equals the stamp digestTree takes as it reads, folders, links, files and the root alike", () => {
    const dir = testdir(PACKAGE);
    const read = digestTree(dir, { stamp: true, listing: true });
    expect(read.stamp).toEqual(stampTree(dir));
    expect(read.digest).toBe(digestTree(dir).digest);
    // moved whole, the digest's stamp holds as stampTree's does; any write breaks it
    const moved = join(testdir(), "moved");
    renameSync(dir, moved);
    const stamp = read.stamp as NonNullable<typeof read.stamp>;
    expect(restampTree(moved, stamp.nodes)).toBe(stamp.stamp);
    writeFileSync(join(moved, "skills/pdf/reference.md"), "ref\n");
    expect(restampTree(moved, stamp.nodes)).not.toBe(stamp.stamp);
    expect(digestTree(moved).stamp).toBeUndefined();
  });

  it("is undefined for a tree the digest refuses", () => {
    expect(stampTree(testdir({ "out.md": link("/etc/hostname") }))).toBeUndefined();
    expect(stampTree(join(testdir(), "missing"))).toBeUndefined();
  });
});
