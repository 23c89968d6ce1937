import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { digestTree, isSkillshelfError, stampTree } from "@skillshelf/core";
import { createSkillCache } from "@skillshelf/skills-loader";
import {
  createStagingArea,
  parseSourceSpec,
  readCollection,
  stageCollectionSkill,
  stageSource,
} from "@skillshelf/sources";
import { bareClone, copyCorpus, gitEnv, gitRepo, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const skill = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n# ${name}\n`;

describe("readCollection", () => {
  it("finds skills in every conventional layout, each folder once", () => {
    const dir = testdir({
      "skills/alpha/SKILL.md": skill("alpha", "metadata:\n  version: 1.2.0\nlicense: MIT\n"),
      "skills/group/beta/SKILL.md": skill("beta"),
      ".claude/skills/gamma/SKILL.md": skill("gamma"),
      ".agents/skills/delta/SKILL.md": skill("delta", "metadata:\n  version: not-semver\n"),
      ".claude-plugin/marketplace.json": JSON.stringify({
        plugins: [
          { name: "p", source: "./", skills: ["./extra/epsilon"] },
          { name: "q", source: "./plugins/q" },
          { name: "escape", source: "./", skills: ["../outside"] },
        ],
      }),
      "extra/epsilon/SKILL.md": skill("epsilon"),
      "plugins/q/skills/zeta/SKILL.md": skill("zeta"),
      "docs/not-a-layout/SKILL.md": skill("ignored"),
    });
    // the same folder reached again through a symlink counts once
    symlinkSync("../skills/alpha", join(dir, ".agents", "skills", "alpha-link"));
    const { skills, diagnostics } = readCollection(dir);
    expect(skills.map((found) => [found.name, found.path, found.version])).toEqual([
      ["alpha", "skills/alpha", "1.2.0"],
      ["beta", "skills/group/beta", "0.0.0"],
      ["delta", ".agents/skills/delta", "0.0.0"],
      ["epsilon", "extra/epsilon", "0.0.0"],
      ["gamma", ".claude/skills/gamma", "0.0.0"],
      ["zeta", "plugins/q/skills/zeta", "0.0.0"],
    ]);
    expect(skills[0]).toMatchObject({ license: "MIT", description: "The alpha skill." });
    expect(diagnostics).toEqual([]);
  });

  it("reads a root SKILL.md as the one skill of the folder", () => {
    const dir = testdir({ "SKILL.md": skill("solo"), "skills/other/SKILL.md": skill("other") });
    expect(readCollection(dir).skills.map((found) => [found.name, found.path])).toEqual([
      ["solo", "."],
    ]);
  });

  it("reports every skill of a clashing name and refuses a name that cannot be an id", () => {
    const dir = testdir({
      "skills/a/SKILL.md": skill("same"),
      "skills/b/SKILL.md": skill("same"),
      "skills/c/SKILL.md": skill("Not_An_Id"),
      "skills/d/SKILL.md": "no frontmatter\n",
      "skills/e/SKILL.md": skill("unique"),
    });
    const { skills, clashes, refused, diagnostics } = readCollection(dir);
    expect(skills.map((found) => found.path)).toEqual(["skills/a", "skills/b", "skills/e"]);
    expect([...clashes]).toEqual([["same", ["skills/a", "skills/b"]]]);
    expect(refused.map((item) => [item.code, item.path])).toEqual([
      ["collection_skill_invalid", "skills/c"],
      ["collection_not_a_skill", "skills/d"],
    ]);
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["collection_skill_invalid", join(dir, "skills/c/SKILL.md")],
      ["collection_not_a_skill", join(dir, "skills/d/SKILL.md")],
      ["collection_duplicate", join(dir, "skills/a/SKILL.md")],
      ["collection_duplicate", join(dir, "skills/b/SKILL.md")],
    ]);
  });

  it("names a skill whose written name cannot be typed after its folder, as the loader does, except the collection's own", () => {
    const dir = testdir({
      "cli/skills/comms/email-composer/SKILL.md": skill("Email Composer"),
      "cli/skills/comms/writer/SKILL.md": skill("writer"),
    });
    expect(readCollection(dir).skills.map((found) => [found.name, found.path])).toEqual([
      ["email-composer", "cli/skills/comms/email-composer"],
      ["writer", "cli/skills/comms/writer"],
    ]);
    // a skill at the root: its folder is where it was fetched to, not a name its author gave
    const root = testdir({ "SKILL.md": skill("Solo Skill") });
    const { skills, refused } = readCollection(root);
    expect(skills).toEqual([]);
    expect(refused.map((item) => [item.code, item.path])).toEqual([
      ["collection_skill_invalid", "."],
    ]);
  });

  it("searches category folders through links inside, and reads a SKILL.md link only where it stays inside", () => {
    const outside = testdir({ "SKILL.md": skill("escaped") });
    const dir = testdir({
      "shared/texts/inside.md": skill("linked-file"),
      "library/tools/real-one/SKILL.md": skill("real-one"),
      "cats/plain/linked-file/notes.md": "notes\n",
      "cats/plain/escaped/notes.md": "notes\n",
    });
    // a category reached by a link: its skill is found once, by its real folder
    symlinkSync("../library/tools", join(dir, "cats", "tools"));
    symlinkSync("../../../shared/texts/inside.md", join(dir, "cats/plain/linked-file/SKILL.md"));
    symlinkSync(join(outside, "SKILL.md"), join(dir, "cats/plain/escaped/SKILL.md"));
    const { skills, refused } = readCollection(dir);
    expect(skills.map((found) => [found.name, found.path])).toEqual([
      ["linked-file", "cats/plain/linked-file"],
      ["real-one", "library/tools/real-one"],
    ]);
    expect(refused.map((item) => [item.code, item.path])).toEqual([
      ["collection_link_outside", "cats/plain/escaped"],
    ]);
  });

  it("reads each SKILL.md as the skills loader does, through the cache it is given, and refuses one the loader would", () => {
    const real = realpathSync(
      testdir({
        "skills/alpha/SKILL.md": skill("alpha"),
        "skills/silent/SKILL.md": "---\nname: silent\n---\n# silent\n",
        "skills/binary/SKILL.md": `---\nname: binary\ndescription: Nul.\n---\n\u0000\n`,
      }),
    );
    // named through a link, as a temporary folder often is
    const dir = join(testdir({}), "linked");
    symlinkSync(real, dir);
    const skillFiles = createSkillCache();
    const { skills, refused, diagnostics } = readCollection(dir, { skillFiles });
    expect(skills.map((found) => found.name)).toEqual(["alpha"]);
    expect(refused.map((item) => [item.code, item.path])).toEqual([
      ["collection_skill_invalid", "skills/binary"],
      ["collection_skill_invalid", "skills/silent"],
    ]);
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.details?.skill])).toEqual([
      ["collection_skill_invalid", "skills/binary"],
      ["collection_skill_invalid", "skills/silent"],
    ]);
    // what a load of the skill's folder where it is staged would read, that cache has
    expect(skillFiles.knows(join(dir, "skills/alpha/SKILL.md"))).toBe(true);
    expect(skillFiles.stats()).toMatchObject({ misses: 3, entries: 3 });
  });

  it("reads a real repository of skills from the corpus", () => {
    const dir = copyCorpus("skills/anthropics-skills");
    const names = readCollection(dir).skills.map((found) => found.name);
    const folders = readdirSync(join(dir, "skills")).filter((name) =>
      existsSync(join(dir, "skills", name, "SKILL.md")),
    );
    expect(names.length).toBe(folders.length);
    expect(names).toContain("skill-creator");
  });
});

describe("stageCollectionSkill", () => {
  it("stages one skill as a skill package with its subfolder in the source", async () => {
    const dir = testdir({
      "skills/alpha/SKILL.md": skill("alpha", "metadata:\n  version: 2.0.0\n"),
      "skills/alpha/scripts/run.sh": { content: "#!/bin/sh\n", mode: 0o755 },
      "skills/beta/SKILL.md": skill("beta"),
    });
    const collection = await stageSource({ type: "local", path: dir });
    const [alpha] = readCollection(collection.dir).skills;
    if (alpha === undefined) throw new Error("no skill found");
    const staged = stageCollectionSkill(collection, alpha);
    expect(staged.source).toEqual({ type: "local", path: join(dir, "skills", "alpha") });
    expect(readdirSync(staged.dir).sort()).toEqual(["SKILL.md", "plugin.json", "scripts"]);
    expect(JSON.parse(readFileSync(join(staged.dir, "plugin.json"), "utf8"))).toEqual({
      name: "alpha",
      version: "2.0.0",
      description: "The alpha skill.",
      extensions: {
        skillshelf: {
          manifestVersion: 1,
          kind: "skill",
          resources: { skills: "." },
          components: [{ kind: "skill", id: "alpha", path: "SKILL.md" }],
        },
      },
    });
    expect(staged.digest).toBe(digestTree(staged.dir).digest);
    // staged again from the recorded subfolder, it is the same package, byte for byte
    const again = await stageSource(staged.source);
    const [only] = readCollection(again.dir).skills;
    expect(only?.path).toBe(".");
    const restaged = stageCollectionSkill(again, only as NonNullable<typeof only>);
    expect(restaged.digest).toBe(staged.digest);
    // staged in place in its collection rather than copied, it is the same package too
    const [, beta] = readCollection(collection.dir).skills;
    const copied = stageCollectionSkill(collection, beta as NonNullable<typeof beta>);
    const inPlace = stageCollectionSkill(collection, beta as NonNullable<typeof beta>, {
      inPlace: true,
    });
    expect(inPlace.digest).toBe(copied.digest);
    expect(inPlace.dir).toBe(join(collection.dir, "skills", "beta"));
    // either way the staged tree's stamp and files come with it, so a writer need not read it again
    for (const each of [copied, inPlace]) {
      const { listing, ...stamp } = each.stamped ?? {};
      expect(stamp).toEqual(stampTree(each.dir));
      expect(listing).toEqual(digestTree(each.dir, { listing: true }).listing);
    }
    for (const each of [copied, inPlace]) each.release();
    expect(existsSync(join(collection.dir, "skills", "beta"))).toBe(false);
    for (const each of [staged, restaged, collection, again]) each.release();
    expect(existsSync(staged.dir)).toBe(false);
  });

  it.each([false, true])(
    "refuses a skill whose symlink leaves its own folder, and leaves nothing (in place: %s)",
    async (inPlace) => {
      const dir = testdir({ "skills/alpha/SKILL.md": skill("alpha"), "shared.md": "shared" });
      symlinkSync("../../shared.md", join(dir, "skills", "alpha", "shared.md"));
      const collection = await stageSource({ type: "local", path: dir });
      const [alpha] = readCollection(collection.dir).skills;
      const tempDir = testdir();
      let code: string | undefined;
      try {
        stageCollectionSkill(collection, alpha as NonNullable<typeof alpha>, { tempDir, inPlace });
      } catch (error) {
        code = isSkillshelfError(error) ? error.code : String(error);
      }
      expect(code).toBe("tree_link_escape");
      expect(readdirSync(tempDir)).toEqual([]);
      expect(readdirSync(join(collection.dir, "skills"))).toEqual(inPlace ? [] : ["alpha"]);
      collection.release();
    },
  );

  it("copies a collection's skills into one staging area, each released on its own", () => {
    // read where it is: the folder a user named
    const dir = testdir({
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/beta/SKILL.md": skill("beta"),
      "skills/beta/ok.md": "ok",
    });
    const tempDir = testdir();
    const area = createStagingArea(tempDir);
    const source = { type: "local", path: dir } as const;
    const [alpha, beta] = readCollection(dir).skills.map((one) =>
      stageCollectionSkill({ dir, source }, one, { area }),
    );
    if (alpha === undefined || beta === undefined) throw new Error("two skills expected");
    expect([alpha.dir, beta.dir]).toEqual([join(area.dir, "alpha"), join(area.dir, "beta")]);
    expect(beta.digest).toBe(digestTree(beta.dir).digest);
    expect(readdirSync(tempDir)).toHaveLength(1);
    expect(readdirSync(join(dir, "skills", "beta")).sort()).toEqual(["SKILL.md", "ok.md"]);
    alpha.release();
    expect(readdirSync(area.dir)).toEqual(["beta"]);
    area.release();
    area.release();
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("replaces a plugin.json entry in the skill's folder (a symlink, dangling or not, or a folder) instead of writing through it", async () => {
    const dir = testdir({
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/alpha/notes.md": "n",
      "skills/beta/SKILL.md": skill("beta"),
      "skills/gamma/SKILL.md": skill("gamma"),
      "skills/gamma/plugin.json/inner.md": "folder",
    });
    symlinkSync("notes.md", join(dir, "skills", "alpha", "plugin.json"));
    symlinkSync("missing.json", join(dir, "skills", "beta", "plugin.json"));
    const collection = await stageSource({ type: "local", path: dir });
    for (const one of readCollection(collection.dir).skills)
      for (const inPlace of [false, true]) {
        const staged = stageCollectionSkill(collection, one, { inPlace });
        expect(lstatSync(join(staged.dir, "plugin.json")).isFile()).toBe(true);
        expect(existsSync(join(staged.dir, "missing.json"))).toBe(false);
        staged.release();
      }
    expect(readFileSync(join(dir, "skills", "alpha", "notes.md"), "utf8")).toBe("n");
    collection.release();
  });

  it("narrows a git source to the skill's folder", async () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree: { "skills/alpha/SKILL.md": skill("alpha") }, tag: "v1" }], env);
    const url = bareClone(repo.path, env);
    const collection = await stageSource({ type: "git", url, ref: "v1" }, { env });
    const [alpha] = readCollection(collection.dir).skills;
    const staged = stageCollectionSkill(collection, alpha as NonNullable<typeof alpha>);
    expect(staged.source).toEqual({ type: "git", url, ref: "v1", path: "skills/alpha" });
    expect(staged.commit).toBe(repo.commits[0]);
    staged.release();
    collection.release();
  });
});

describe("parseSourceSpec", () => {
  it("reads owner/repo, //subfolder and #ref as a person types them", () => {
    const base = testdir({ "local/pkg/plugin.json": "{}" });
    expect(parseSourceSpec("obra/superpowers", base)).toEqual({
      ok: true,
      source: { type: "git", url: "https://github.com/obra/superpowers.git" },
    });
    expect(parseSourceSpec("anthropics/skills//skills/pdf#main", base)).toEqual({
      ok: true,
      source: {
        type: "git",
        url: "https://github.com/anthropics/skills.git",
        ref: "main",
        path: "skills/pdf",
      },
    });
    // a path of that name, or one written as a path, is a folder
    expect(parseSourceSpec("local/pkg", base)).toEqual({
      ok: true,
      source: { type: "local", path: join(base, "local", "pkg") },
    });
    expect(parseSourceSpec("./owner/repo", base)).toMatchObject({ source: { type: "local" } });
    expect(parseSourceSpec("https://github.com/obra/superpowers", base)).toEqual({
      ok: true,
      source: { type: "git", url: "https://github.com/obra/superpowers.git" },
    });
    expect(parseSourceSpec("https://git.example.com/team/tools.git//pkg#v2", base)).toEqual({
      ok: true,
      source: {
        type: "git",
        url: "https://git.example.com/team/tools.git",
        ref: "v2",
        path: "pkg",
      },
    });
    expect(parseSourceSpec("https://example.com/skills.zip", base)).toEqual({
      ok: true,
      source: { type: "archive", url: "https://example.com/skills.zip" },
    });
  });

  it("reads a local bare repository, and a work tree given a ref, as git", () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree: { "a.md": "a" }, tag: "v1" }], env);
    const bare = bareClone(repo.path, env);
    expect(parseSourceSpec(`${bare}#v1`, "/")).toEqual({
      ok: true,
      source: { type: "git", url: bare, ref: "v1" },
    });
    expect(parseSourceSpec(`${bare}//sub`, "/")).toMatchObject({
      source: { type: "git", url: bare, path: "sub" },
    });
    expect(parseSourceSpec(`${repo.path}#v1`, "/")).toMatchObject({ source: { type: "git" } });
    expect(parseSourceSpec(repo.path, "/")).toMatchObject({ source: { type: "local" } });
  });

  it.each(["owner/repo//../x", "owner/repo#-x", "https://github.com/o/r//a#ref=b&path=c"])(
    "refuses %j",
    (text) => {
      expect(parseSourceSpec(text, testdir()).ok).toBe(false);
    },
  );
});
