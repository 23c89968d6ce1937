import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  createSkillCache,
  type LoadSkillsResult,
  loadSkills,
  type SavedSkillCache,
  type SkillCache,
} from "@skillshelf/skills-loader";
import { CORPUS_DIR, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

/** Every skill of the corpus, in a folder of this test's own. */
function corpusTree(): string {
  const dir = testdir();
  cpSync(join(CORPUS_DIR, "skills"), join(dir, "skills"), { recursive: true });
  return dir;
}

function load(dir: string, cache?: SkillCache, includeBody = false): LoadSkillsResult {
  return loadSkills({
    cwd: dir,
    home: "/nonexistent",
    env: {},
    disableDiscovery: true,
    explicitSkillPaths: ["."],
    ...(cache === undefined ? {} : { cache }),
    includeBody,
  });
}

/** What another process gets back: the saved cache through JSON, in a cache of `version`. */
function reopened(saved: SavedSkillCache, version = "build-1"): SkillCache {
  return createSkillCache({ saved: JSON.parse(JSON.stringify(saved)), version });
}

/** A save that finds every file settled (as it would be a minute from now). */
const settled = { now: Date.now() + 60_000 };

describe("a saved skill cache", () => {
  it("gives a later process the load's exact result without reading an unchanged skill file", () => {
    const dir = corpusTree();
    const first = createSkillCache({ version: "build-1" });
    const fresh = load(dir, first);
    const saved = first.save(settled);
    expect(saved.records.length).toBeGreaterThan(150);
    const cache = reopened(saved);
    const again = load(dir, cache);
    expect(again).toStrictEqual(fresh);
    // what was not saved (a refused file, a value JSON cannot hold) is read again, alone
    expect(cache.stats()).toMatchObject({
      hits: saved.records.length,
      misses: first.stats().entries - saved.records.length,
    });
  });

  it("gives what a read of the frontmatter alone gives, though the bodies were read", () => {
    const dir = corpusTree();
    const first = createSkillCache({ version: "build-1" });
    load(dir, first, true);
    const cache = reopened(first.save(settled));
    expect(load(dir, cache)).toStrictEqual(load(dir));
    expect(cache.stats().hits).toBeGreaterThan(150);
  });

  it("is read again where the tree changed, and the load equals one without any cache", () => {
    const dir = corpusTree();
    const first = createSkillCache({ version: "build-1" });
    const folders = load(dir, first).items.map((skill) => dirname(skill.path));
    const saved = first.save(settled);
    const skills = join(dir, "skills");
    const [changed, removed, linked] = folders;
    // other bytes; a skill gone; one a link now; one added beside the others
    writeFileSync(join(changed as string, "SKILL.md"), skillFile("changed", "Now this."));
    rmSync(removed as string, { recursive: true });
    rmSync(join(linked as string, "SKILL.md"));
    writeFileSync(join(dir, "other.md"), skillFile("linked", "Through a link."));
    symlinkSync(join(dir, "other.md"), join(linked as string, "SKILL.md"));
    mkdirSync(join(skills, "added"));
    writeFileSync(join(skills, "added", "SKILL.md"), skillFile("added", "New."));
    expect(load(dir, reopened(saved))).toStrictEqual(load(dir));
    expect(load(dir, reopened(saved), true)).toStrictEqual(load(dir, undefined, true));
  });

  it("keeps no file changed within two seconds of the save, nor one JSON cannot give back", () => {
    const dir = testdir({
      "plain/SKILL.md": skillFile("plain", "Plain."),
      "nan/SKILL.md": skillFile("nan", "Not a number.", "metadata:\n  ratio: .nan\n"),
      "infinite/SKILL.md": skillFile("infinite", "Endless.", "metadata:\n  limit: .inf\n"),
      "negative-zero/SKILL.md": skillFile("negative-zero", "Signed.", "metadata:\n  zero: -0.0\n"),
      "refused/SKILL.md": "no frontmatter",
    });
    const cache = createSkillCache();
    const fresh = load(dir, cache);
    expect(cache.save().records).toEqual([]);
    const saved = cache.save(settled);
    expect(saved.records.map(([path]) => path)).toEqual([join(dir, "plain", "SKILL.md")]);
    expect(load(dir, reopened(saved, ""))).toStrictEqual(fresh);
  });

  it("is taken only by the version that saved it, and only whole", () => {
    const dir = corpusTree();
    const first = createSkillCache({ version: "build-1" });
    const fresh = load(dir, first);
    const saved = first.save(settled);
    const [path, record] = saved.records[0] as SavedSkillCache["records"][number];
    const damaged: unknown[] = [
      { ...saved, version: "build-2" },
      { ...saved, format: 2 },
      { ...saved, records: {} },
      { ...saved, listings: undefined },
      { ...saved, listings: [["/x", [1, 2, 3, 4], []]] },
      { ...saved, listings: [["/x", [1, 2, 3, 4, 5], [["a", "z"]]]] },
      { ...saved, records: [...saved.records, [path]] },
      { ...saved, records: [[path, { ...record, signature: { ...record.signature, ino: "1" } }]] },
      { ...saved, records: [[path, { ...record, fields: { ...record.fields, name: 1 } }]] },
      { ...saved, records: [[path, { ...record, diagnostics: {} }]] },
      "not a cache",
      null,
    ];
    for (const value of damaged) {
      const cache = createSkillCache({ saved: value, version: "build-1" });
      expect(load(dir, cache)).toStrictEqual(fresh);
      expect(cache.stats().hits).toBe(0);
    }
  });

  it("keeps folder listings once settled, and finds what a kept folder gained", async () => {
    const dir = testdir({
      "tools/a/SKILL.md": skillFile("a", "First."),
      "tools/b/SKILL.md": skillFile("b", "Second."),
      "more/x/SKILL.md": skillFile("x", "Elsewhere."),
    });
    // a listing is kept only once its folder is two seconds unchanged
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const first = createSkillCache();
    load(dir, first);
    const saved = first.save();
    expect(saved.listings.map(([path]) => path)).toContain(join(dir, "tools"));
    const names = (cache: SkillCache) => load(dir, cache).items.map((skill) => skill.name);
    expect(names(reopened(saved, ""))).toEqual(["a", "b", "x"]);
    mkdirSync(join(dir, "tools", "c"));
    writeFileSync(join(dir, "tools", "c", "SKILL.md"), skillFile("c", "Third."));
    rmSync(join(dir, "more", "x"), { recursive: true });
    expect(names(reopened(saved, ""))).toEqual(["a", "b", "c"]);
  });
});
