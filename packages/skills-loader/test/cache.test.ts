import { mkdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSkillCache, loadSkills } from "@skillshelf/skills-loader";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("createSkillCache", () => {
  const tree = () =>
    testdir({
      "a/SKILL.md": skillFile("a", "First."),
      "b/SKILL.md": skillFile("b", "Second."),
      "bad/SKILL.md": "no frontmatter",
    });
  const load = (dir: string, cache: ReturnType<typeof createSkillCache>, includeBody = false) =>
    loadSkills({
      cwd: dir,
      home: "/nonexistent",
      env: {},
      disableDiscovery: true,
      explicitSkillPaths: ["."],
      cache,
      includeBody,
    });

  it("reads no file again for an unchanged tree and returns the same result", () => {
    const dir = tree();
    const cache = createSkillCache();
    const first = load(dir, cache);
    expect(cache.stats()).toEqual({ hits: 0, misses: 3, entries: 3 });
    const second = load(dir, cache);
    expect(cache.stats()).toEqual({ hits: 3, misses: 3, entries: 3 });
    expect(second).toEqual(first);
  });

  it("takes a known skill file without a stat in a folder its host says is unchanged, and looks again once it is not", () => {
    const dir = tree();
    const quiet = new Set<string>();
    const cache = createSkillCache({ unchanged: (folder) => quiet.has(folder) });
    const description = () =>
      load(dir, cache).items.find((skill) => skill.name === "a")?.description;
    expect(description()).toBe("First.");
    // the host vouches for a/ (a watch that saw nothing): an edit it did not report stays unseen
    quiet.add(realpathSync(join(dir, "a")));
    writeFileSync(join(dir, "a", "SKILL.md"), skillFile("a", "Edited, unreported."));
    expect(description()).toBe("First.");
    // once it no longer vouches, the file is looked at, and the edit is there
    quiet.clear();
    expect(description()).toBe("Edited, unreported.");
  });

  it("gives an unchanged tree's result again in arrays of its own, and clashes decided afresh once anything moved", () => {
    const dir = testdir({
      "one/a/SKILL.md": skillFile("a", "First."),
      "two/a/SKILL.md": skillFile("a", "Second."),
    });
    const cache = createSkillCache();
    const first = load(dir, cache);
    const second = load(dir, cache);
    expect(second).toEqual(first);
    expect(second.items).not.toBe(first.items);
    expect(second.items[0]).toBe(first.items[0]);
    // the caller's arrays are its own: changing them changes nothing the cache gives next
    first.items.length = 0;
    first.diagnostics.length = 0;
    expect(load(dir, cache)).toEqual(second);
    // the winner's file goes: the clash is decided again, not taken from the last load
    const winner = second.items[0]?.path as string;
    rmSync(winner);
    const after = load(dir, cache);
    expect(after.items.map((skill) => skill.path)).toEqual(
      [join(dir, "one/a/SKILL.md"), join(dir, "two/a/SKILL.md")].filter((path) => path !== winner),
    );
    expect(after.collisions).toEqual([]);
  });

  it("finds a skill added to a category folder whose listing the cache kept", async () => {
    const dir = testdir({
      "more/x/SKILL.md": skillFile("x", "Elsewhere."),
      "tools/a/SKILL.md": skillFile("a", "First."),
      "tools/b/SKILL.md": skillFile("b", "Second."),
    });
    const cache = createSkillCache();
    const names = () => load(dir, cache).items.map((skill) => skill.name);
    // a listing is kept only once its folder is two seconds unchanged (a racy one is listed again)
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(names()).toEqual(["a", "b", "x"]);
    expect(names()).toEqual(["a", "b", "x"]);
    mkdirSync(join(dir, "tools/c"));
    writeFileSync(join(dir, "tools/c/SKILL.md"), skillFile("c", "Third."));
    rmSync(join(dir, "tools/a"), { recursive: true });
    expect(names()).toEqual(["b", "c", "x"]);
    // a category folder (its sibling `more` is one too) that gains a SKILL.md is a skill now, the
    // folders below it no longer skills of their own: its kept listing is not taken for it
    writeFileSync(join(dir, "tools/SKILL.md"), skillFile("tools", "The whole folder."));
    expect(names()).toEqual(["tools", "x"]);
  });

  it("reads a changed file again", () => {
    const dir = tree();
    const cache = createSkillCache();
    load(dir, cache);
    writeFileSync(join(dir, "a/SKILL.md"), skillFile("a", "Changed."));
    utimesSync(join(dir, "a/SKILL.md"), new Date(2030, 0, 1), new Date(2030, 0, 1));
    const result = load(dir, cache);
    expect(result.items.find((skill) => skill.name === "a")?.description).toBe("Changed.");
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 4 });
  });

  it("forgets a removed file's skill and re-reads for bodies only when needed", () => {
    const dir = tree();
    const cache = createSkillCache();
    load(dir, cache);
    rmSync(join(dir, "b"), { recursive: true });
    expect(load(dir, cache).items.map((skill) => skill.name)).toEqual(["a"]);
    const withBody = load(dir, cache, true);
    expect(withBody.items[0]?.body).toBe("# a\n\nSteps.\n");
    expect(load(dir, cache, true).items[0]?.body).toBe("# a\n\nSteps.\n");
    expect(load(dir, cache).items[0]?.body).toBe("# a\n\nSteps.\n");
  });

  it("keeps at most maxEntries files", () => {
    const dir = tree();
    const cache = createSkillCache({ maxEntries: 2 });
    load(dir, cache);
    expect(cache.stats().entries).toBe(2);
    cache.clear();
    expect(cache.stats()).toEqual({ hits: 0, misses: 0, entries: 0 });
  });
});
