import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openRegularFile, packageRoot } from "@skillshelf/core";
import { createSkillCache, loadSkills, readSkillFolderFile } from "@skillshelf/skills-loader";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("readSkillFolderFile", () => {
  const folder = (text: string) => {
    const dir = realpathSync(testdir({ "pdf-tools/SKILL.md": text }));
    const path = join(dir, "pdf-tools", "SKILL.md");
    return { dir: join(dir, "pdf-tools"), path };
  };
  // the folder as a package whose skills folder is itself, loaded with bodies through `cache`
  const loadAsPackage = (dir: string, cache: ReturnType<typeof createSkillCache>) =>
    loadSkills({
      home: "/nonexistent",
      env: {},
      includeBody: true,
      roots: [packageRoot({ id: "pdf-tools", path: dir, packageDir: dir, trust: "trusted" })],
      cache,
    });

  it("gives the frontmatter and findings a load gives, and a load through the same cache reads the file no more", () => {
    const { dir, path } = folder(skillFile("pdf", "Fill PDF forms.", "license: MIT\n"));
    const cache = createSkillCache();
    const read = readSkillFolderFile({ path, realPath: path }, cache);
    expect(read.frontmatter).toMatchObject({ name: "pdf", license: "MIT" });
    expect(read.name).toBe("pdf");
    // checked against its folder's name, as a load checks it
    expect(read.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["name_mismatch"]);
    expect(cache.stats()).toEqual({ hits: 0, misses: 1, entries: 1 });
    const loaded = loadAsPackage(dir, cache);
    expect(cache.stats()).toEqual({ hits: 1, misses: 1, entries: 1 });
    expect(loaded.items.map((skill) => [skill.name, skill.body])).toEqual([
      ["pdf", "# pdf\n\nSteps.\n"],
    ]);
    expect(loaded).toEqual(loadAsPackage(dir, createSkillCache()));
  });

  it("reads a file the caller opened, and a changed file is read again by the load", () => {
    const { dir, path } = folder(skillFile("pdf-tools", "Fill PDF forms."));
    const cache = createSkillCache();
    const opened = openRegularFile(path, { noFollow: true });
    expect(readSkillFolderFile({ path, realPath: path, opened }, cache).frontmatter).toMatchObject({
      name: "pdf-tools",
    });
    writeFileSync(path, skillFile("pdf-tools", "Fill and sign PDF forms, a longer text."));
    const loaded = loadAsPackage(dir, cache);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 2 });
    expect(loaded.items[0]?.description).toBe("Fill and sign PDF forms, a longer text.");
  });

  it("gives the name a load gives: the folder's when the one written cannot be typed", () => {
    const { dir, path } = folder(skillFile("PDF Tools", "Fill PDF forms."));
    const read = readSkillFolderFile({ path, realPath: path });
    expect([read.frontmatter?.name, read.name]).toEqual(["PDF Tools", "pdf-tools"]);
    expect(read.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "skill_name_unaddressable_fallback",
    ]);
    expect(loadAsPackage(dir, createSkillCache()).items.map((skill) => skill.name)).toEqual([
      "pdf-tools",
    ]);
  });

  it("refuses a file that does not make a skill with the load's error code", () => {
    const { path } = folder("---\nname: pdf-tools\n---\nNo description.\n");
    const read = readSkillFolderFile({ path, realPath: path });
    expect(read.frontmatter).toBeUndefined();
    expect(read.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ["description_missing", path],
    ]);
  });
});
