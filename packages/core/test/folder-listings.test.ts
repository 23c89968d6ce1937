import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFolderListings } from "@skillshelf/core";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const names = (entries: readonly { name: string }[]) => entries.map((entry) => entry.name);
/** Move a folder's modification time an hour back (its change time stays now). */
const backdate = (path: string) => {
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(path, hourAgo, hourAgo);
};

describe("createFolderListings", () => {
  it("lists a folder sorted by name and keeps the listing while the folder is unchanged", () => {
    const dir = testdir({ "b/SKILL.md": "x", "a.md": "y", "C/f.md": "z" });
    const listings = createFolderListings({ racyMs: 0 });
    const first = listings.list(dir);
    expect(names(first)).toEqual(["C", "a.md", "b"]);
    expect(listings.list(dir)).toBe(first);
  });

  it("lists again once an entry is added, removed or renamed", () => {
    const dir = testdir({ "a.md": "y", "b/SKILL.md": "x" });
    const listings = createFolderListings({ racyMs: 0 });
    backdate(dir);
    const first = listings.list(dir);
    mkdirSync(join(dir, "c"));
    expect(names(listings.list(dir))).toEqual(["a.md", "b", "c"]);
    backdate(dir);
    listings.list(dir);
    rmSync(join(dir, "a.md"));
    expect(names(listings.list(dir))).toEqual(["b", "c"]);
    expect(listings.list(dir)).not.toBe(first);
  });

  it("keeps no listing of a folder changed too recently (a racy listing)", () => {
    const dir = testdir({ "a.md": "y" });
    // an hour, not the default two seconds: a slow machine cannot age the folder past it
    const listings = createFolderListings({ racyMs: 3_600_000 });
    const first = listings.list(dir);
    expect(listings.list(dir)).not.toBe(first);
    expect(names(listings.list(dir))).toEqual(["a.md"]);
  });

  it("throws as readdir does for a folder that is gone, and forgets on clear", () => {
    const dir = testdir({ "sub/a.md": "y" });
    const listings = createFolderListings({ racyMs: 0 });
    const first = listings.list(join(dir, "sub"));
    listings.clear();
    expect(listings.list(join(dir, "sub"))).not.toBe(first);
    rmSync(join(dir, "sub"), { recursive: true });
    expect(() => listings.list(join(dir, "sub"))).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
    writeFileSync(join(dir, "sub"), "now a file");
    expect(() => listings.list(join(dir, "sub"))).toThrow(
      expect.objectContaining({ code: "ENOTDIR" }),
    );
  });
});
