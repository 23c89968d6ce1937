import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspectCopy, readInventory } from "@skillshelf/inventory";
import { discoverLibrary } from "@skillshelf/sources";
import { observeCopyFacts, packagesDir } from "@skillshelf/store";
import { setEnabled } from "@skillshelf/store/writers";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { environment, install, kitPackage } from "./_fixture.js";

const owned = (inventory: ReturnType<typeof readInventory>) =>
  inventory.resources.filter((resource) => resource.owner?.id === "kit");

describe("readInventory over the fixture package (one skill, one prompt, one fleet)", () => {
  it("counts what the loaders admit, with origin, format, source id and keys", () => {
    const env = environment();
    install(env, "user", kitPackage());
    const inventory = readInventory({ environment: env });
    const rows = owned(inventory);
    expect(rows.map((row) => [row.kind, row.name, row.availability])).toEqual([
      ["skill", "kit-skill", "available"],
      ["prompt", "help", "available"],
      ["fleet", "release", "available"],
    ]);
    for (const row of rows) {
      expect(row.source).toEqual({ class: "package", id: "package:user:kit", scope: "package" });
      expect(row.origin.kind).toBe("local");
      expect(row.format).toBe("skillshelf");
      expect(row.key.startsWith(`${row.kind}:${row.name}@package:user:kit#`)).toBe(true);
      expect(row).not.toHaveProperty("body");
    }
    expect(rows[0]?.key).toBe("skill:kit-skill@package:user:kit#skills/kit-skill/SKILL.md");
    expect(rows.map((row) => row.invocation)).toEqual(["/skill kit-skill", "/help", undefined]);
    expect(inventory.copies).toEqual([
      expect.objectContaining({ ref: "plugin:kit", scope: "user", state: "loadable" }),
    ]);
    expect(inventory.packages).toEqual([
      expect.objectContaining({
        ref: "plugin:kit",
        listedBy: "installed",
        copies: [{ scope: "user", state: "loadable" }],
      }),
    ]);
  });

  it("inspects one copy deeply, whatever its state", () => {
    const env = environment();
    install(env, "user", kitPackage());
    setEnabled({
      environment: env,
      scope: "user",
      id: "kit",
      enabled: false,
      reviewed: observeCopyFacts({ environment: env, scope: "user", id: "kit" }),
    });
    expect(owned(readInventory({ environment: env }))).toEqual([]);
    const inspection = inspectCopy({ environment: env, id: "kit" });
    expect(inspection?.copy.state).toBe("disabled");
    expect(inspection?.resources.map((row) => [row.kind, row.name, row.valid])).toEqual([
      ["skill", "kit-skill", true],
      ["prompt", "help", true],
      ["fleet", "release", true],
    ]);
  });

  it("reports a duplicate skill in one package as available and shadowed, with distinct keys", () => {
    const env = environment();
    install(
      env,
      "user",
      kitPackage({ files: { "skills/other/SKILL.md": skillFile("kit-skill", "A second copy.") } }),
    );
    const skills = owned(readInventory({ environment: env })).filter((row) => row.kind === "skill");
    expect(skills.map((row) => row.availability).sort()).toEqual(["available", "shadowed"]);
    expect(new Set(skills.map((row) => row.key)).size).toBe(2);
  });

  it("reports a broken prompt and a bad component reference as unavailable, a broken skill as invalid", () => {
    const env = environment();
    install(
      env,
      "user",
      kitPackage({
        files: {
          "prompts/broken.md": Buffer.from([0xff, 0xfe, 0x20]),
          "prompts/refers.md": `---\ndescription: Uses a script.\n---\nRun \${component:script:nope}.\n`,
          "skills/nameless/SKILL.md": "---\nname: nameless\n---\nNo description.\n",
        },
      }),
    );
    const rows = owned(readInventory({ environment: env }));
    expect(rows.map((row) => [row.kind, row.name, row.availability])).toEqual([
      ["skill", "kit-skill", "available"],
      ["skill", "nameless", "invalid"],
      ["prompt", "broken", "unavailable"],
      ["prompt", "help", "available"],
      ["prompt", "refers", "unavailable"],
      ["fleet", "release", "available"],
    ]);
    const nameless = rows.find((row) => row.name === "nameless");
    expect(nameless?.diagnostics.map((d) => d.code)).toContain("description_missing");
    expect(rows.find((row) => row.name === "refers")?.diagnostics.map((d) => d.code)).toEqual([
      "package_reference_unknown",
    ]);
  });
});

describe("copies in two scopes", () => {
  it("lists the project copy loadable and the user copy shadowed by it; a disabled project copy still shadows", () => {
    const env = environment();
    install(env, "user", kitPackage());
    install(env, "project", kitPackage());
    const copies = readInventory({ environment: env }).copies;
    expect(copies.map((copy) => [copy.scope, copy.state, copy.overriddenBy])).toEqual([
      ["user", "shadowed", "project"],
      ["project", "loadable", undefined],
    ]);
    setEnabled({
      environment: env,
      scope: "project",
      id: "kit",
      enabled: false,
      reviewed: observeCopyFacts({ environment: env, scope: "project", id: "kit" }),
    });
    const after = readInventory({ environment: env });
    expect(after.copies.map((copy) => [copy.scope, copy.state])).toEqual([
      ["user", "shadowed"],
      ["project", "disabled"],
    ]);
    // no fallback: neither copy's resources are admitted
    expect(owned(after)).toEqual([]);
  });

  it("labels changed files damaged, a deleted manifest invalid and a newer manifest version incompatible", () => {
    const env = environment();
    install(env, "user", kitPackage());
    install(env, "user", kitPackage({ id: "gone" }));
    install(env, "user", kitPackage({ id: "newer" }));
    const dir = packagesDir(env, "user");
    appendFileSync(join(dir, "kit", "skills", "kit-skill", "SKILL.md"), "edited\n");
    rmSync(join(dir, "gone", "plugin.json"));
    writeFileSync(
      join(dir, "newer", "plugin.json"),
      JSON.stringify({
        name: "newer",
        version: "1.0.0",
        extensions: { skillshelf: { manifestVersion: 2 } },
      }),
    );
    const states = Object.fromEntries(
      readInventory({ environment: env }).copies.map((copy) => [copy.id, copy.state]),
    );
    expect(states).toEqual({ gone: "invalid", kit: "damaged", newer: "incompatible" });
  });
});

describe("bounds and filters", () => {
  it("applies filters before the caps and flags each truncated section", () => {
    const env = environment();
    for (let index = 0; index < 6; index++)
      install(env, "user", kitPackage({ id: `kit-${index}`, skills: [`skill-${index}`] }));
    const capped = readInventory({ environment: env, limits: { resources: 4, copies: 2 } });
    expect(capped.resources).toHaveLength(4);
    expect(capped.copies).toHaveLength(2);
    expect(capped.truncated).toMatchObject({ resources: true, copies: true, packages: false });
    expect(capped.diagnostics.filter((d) => d.code === "inventory_truncated")).toHaveLength(2);
    const filtered = readInventory({
      environment: env,
      limits: { resources: 4 },
      filter: { kinds: ["skill"] },
    });
    expect(filtered.resources.map((row) => row.name)).toEqual([
      "skill-0",
      "skill-1",
      "skill-2",
      "skill-3",
    ]);
    const one = readInventory({ environment: env, filter: { ref: "plugin:kit-3" } });
    expect(one.copies.map((copy) => copy.id)).toEqual(["kit-3"]);
    expect(new Set(one.resources.map((row) => row.owner?.id))).toEqual(new Set(["kit-3"]));
    const key = one.resources[0]?.key as string;
    // an exact resource key finds the resource, and the copy and package that own it (issue 24, item 5)
    const byKey = readInventory({ environment: env, filter: { ref: key } });
    expect(byKey.resources.map((row) => row.key)).toEqual([key]);
    expect(byKey.copies.map((copy) => [copy.scope, copy.id])).toEqual([["user", "kit-3"]]);
    expect(byKey.packages.map((row) => row.ref)).toEqual(["plugin:kit-3"]);
    const keyOnly = readInventory({
      environment: env,
      filter: { ref: key },
      include: { resources: false },
    });
    expect([keyOnly.resources.length, keyOnly.copies.map((copy) => copy.id)]).toEqual([
      0,
      ["kit-3"],
    ]);
    const query = readInventory({ environment: env, filter: { query: "skill-5" } });
    expect(query.resources.map((row) => row.name)).toEqual(["skill-5"]);
  });

  it("gives a model only usable resources, no findings and no path outside the project and home", () => {
    const env = environment();
    install(env, "user", kitPackage());
    const outside = join(env.home, "..", `outside-${process.pid}`);
    mkdirSync(join(env.project, ".claude", "skills", "loose"), { recursive: true });
    writeFileSync(
      join(env.project, ".claude", "skills", "loose", "SKILL.md"),
      skillFile("loose", "Loose."),
    );
    const model = readInventory({ environment: env, audience: "model" });
    expect(
      model.resources.every((row) => row.availability === "available" && row.modelInvocable),
    ).toBe(true);
    expect(model.resources.some((row) => row.name === "loose")).toBe(false);
    expect(model.diagnostics).toEqual([]);
    expect(JSON.stringify(model)).not.toContain(outside);
    const operator = readInventory({ environment: env });
    expect(operator.resources.find((row) => row.name === "loose")).toMatchObject({
      availability: "untrusted",
      source: { class: "agent", id: "claude-code-project" },
      format: "claude-code",
      origin: { kind: "loose" },
    });
  });
});

describe("packages the indexes offer", () => {
  it("lists rows without fetching, with their copies, and matches a kind through provides", () => {
    const env = environment();
    const index = join(
      testdir({
        "library.yaml": [
          "entries:",
          "  - kind: plugin",
          "    name: kit",
          "    description: A kit of things.",
          "    sourceUrl: https://example.invalid/kit.git",
          "    version: 1.0.0",
          `    sha256: ${"c".repeat(64)}`,
          "    provides:",
          "      - { kind: fleet, name: release }",
          "  - kind: skill",
          "    name: remote-only",
          "    description: Never installed.",
          "    sourceUrl: https://example.invalid/remote.git",
          "    version: 0.1.0",
          `    sha256: ${"d".repeat(64)}`,
          "",
        ].join("\n"),
      }),
      "library.yaml",
    );
    install(env, "user", kitPackage());
    const discovery = discoverLibrary(env, { from: [index] });
    const inventory = readInventory({ environment: env, discovery });
    expect(inventory.packages.map((row) => [row.ref, row.listedBy, row.copies])).toEqual([
      ["plugin:kit", "index", [{ scope: "user", state: "loadable" }]],
      ["skill:remote-only", "index", []],
    ]);
    expect(inventory.packages[1]?.origin).toEqual({ kind: "index", index, source: "git" });
    const fleets = readInventory({ environment: env, discovery, filter: { kinds: ["fleet"] } });
    expect(fleets.packages.map((row) => row.ref)).toEqual(["plugin:kit"]);
    expect(fleets.resources.map((row) => row.name)).toEqual(["release"]);
  });
});
