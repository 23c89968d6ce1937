import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { explicitRoot, RESOURCE_KINDS } from "@skillshelf/core";
import { beginPass, KINDS } from "@skillshelf/resources";
import { packagesDir } from "@skillshelf/store";
import { skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { installTree, resourcesEnvironment, toolkitTree } from "./_install.js";

describe("a pass over given roots", () => {
  it("reads those folders alone: no installed package, no default root, no snapshot", () => {
    const environment = resourcesEnvironment();
    installTree(environment, "user", toolkitTree("kit"));
    writeTree(environment.configDir, { "skills/loose/SKILL.md": skillFile("loose", "Loose.") });
    // a broken scope would be a finding of any pass that read the snapshot
    writeFileSync(join(packagesDir(environment, "user"), "state.json"), "{ not json");
    const dir = testdir();
    writeTree(dir, { "review.md": "---\ndescription: Review\n---\nReview $1.\n" });
    const pass = beginPass(environment, {
      roots: { prompt: [explicitRoot(dir)] },
      trustImports: false,
    });
    expect(pass.load("prompt").items.map((item) => item.name)).toEqual(["review"]);
    expect(pass.load("prompt").diagnostics).toEqual([]);
    expect(pass.load("skill").items).toEqual([]);
    expect(pass.roots("skill")).toEqual([]);
    expect("snapshot" in pass).toBe(false);
  });

  it("loads each kind once however often it is asked", () => {
    const dir = testdir();
    writeTree(dir, { "one/SKILL.md": skillFile("one", "One.") });
    const pass = beginPass(resourcesEnvironment(), {
      roots: { skill: [explicitRoot(dir)] },
      trustImports: false,
    });
    expect(pass.load("skill")).toBe(pass.load("skill"));
  });

  it("judges every file: a loader's refusal is an invalid row, a clash a shadowed one", () => {
    const dir = testdir();
    writeTree(dir, {
      "a/good/SKILL.md": skillFile("good", "Good."),
      "b/good/SKILL.md": skillFile("good", "Also good."),
      "bad/SKILL.md": "---\nname: [unclosed\n---\n",
    });
    const admission = beginPass(resourcesEnvironment(), {
      roots: { skill: [explicitRoot(dir)] },
      trustImports: false,
    }).admission();
    expect(
      admission.resources.map(({ name, availability, path }) => [name, availability, path]),
    ).toEqual([
      ["good", "available", join(dir, "a/good/SKILL.md")],
      ["good", "shadowed", join(dir, "b/good/SKILL.md")],
      ["bad", "invalid", join(dir, "bad/SKILL.md")],
    ]);
  });
});

describe("a kind with no roots in a pass", () => {
  it("loads what its loader gives for no roots, without starting the loader", () => {
    const environment = resourcesEnvironment();
    const pass = beginPass(environment, { roots: {}, trustImports: true });
    for (const kind of RESOURCE_KINDS) {
      const loaded = KINDS[kind].load({
        ...environment,
        roots: [],
        trustImports: true,
        bodies: false,
      });
      expect(pass.load(kind), kind).toEqual(loaded);
    }
  });
});

describe("the KINDS table", () => {
  it("has every kind's scaffold load as one valid resource of that kind", () => {
    for (const kind of RESOURCE_KINDS) {
      const dir = testdir();
      const scaffold = KINDS[kind].scaffold("sample");
      writeTree(dir, { [scaffold.path]: scaffold.text });
      const folder = scaffold.path.split("/")[0] ?? "";
      const loaded = beginPass(resourcesEnvironment(), {
        roots: { [kind]: [explicitRoot(join(dir, folder))] },
        trustImports: false,
      }).load(kind);
      expect(
        loaded.items.map((item) => item.name),
        kind,
      ).toEqual(["sample"]);
      expect(loaded.diagnostics, kind).toEqual([]);
    }
  });
});
