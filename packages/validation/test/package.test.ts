import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDiagnostic, digestTree } from "@skillshelf/core";
import { packageTree, skillFile, type Tree, testdir } from "@skillshelf/test-utils";
import {
  skillCatalogValidity,
  validateIndex,
  validatePackage,
  validateSkill,
} from "@skillshelf/validation";
import { describe, expect, it } from "vitest";

const errors = (diagnostics: readonly { severity: string; code: string }[]) =>
  diagnostics.filter((d) => d.severity === "error").map((d) => d.code);

const planner = "---\nname: planner\ndescription: Plans work.\nskills: [pdf]\n---\nYou plan.\n";
const fleet =
  "---\nversion: 1\nname: ship\ndescription: Ship it.\nsteps:\n  - id: plan\n    agent: planner\n  - id: build\n    kind: command\n    command: build-release\n    dependencies: [plan]\n  - id: review\n    agent: reviewer\n    dependencies: [build]\n---\nShip {{version}}.\n";

function plugin(extension: Record<string, unknown>, files: Tree): string {
  return testdir(packageTree({ id: "kit", skills: ["pdf"], extension, files }));
}

describe("validatePackage", () => {
  it("accepts a plugin with skills, prompts, agents and a fleet, and lists what the fleet needs", () => {
    const dir = plugin(
      {
        resources: { prompts: "prompts", agents: "agents", fleets: "fleets" },
        components: [
          { kind: "agent", id: "planner", path: "agents/planner.md" },
          { kind: "skill", id: "pdf", path: "skills/pdf/SKILL.md" },
        ],
      },
      {
        "prompts/fix.md": "Fix $ARGUMENTS.\n",
        "agents/planner.md": planner,
        "fleets/ship.md": fleet,
      },
    );
    const result = validatePackage(dir);
    expect(result.diagnostics).toEqual([]);
    expect(result).toMatchObject({ valid: true, manifestValid: true, manifest: { id: "kit" } });
    expect(result.resources.map((r) => [r.kind, r.name, r.path, r.componentRef])).toEqual([
      ["skill", "pdf", "skills/pdf/SKILL.md", "skill:pdf"],
      ["prompt", "fix", "prompts/fix.md", undefined],
      ["agent", "planner", "agents/planner.md", "agent:planner"],
      ["fleet", "ship", "fleets/ship.md", undefined],
    ]);
    expect(result.prerequisites).toEqual([
      { type: "command", identifier: "build-release", steps: ["build"] },
      { type: "agent", identifier: "reviewer", steps: ["review"] },
    ]);
  });

  it("accepts a skill package and reports an invalid manifest alone", () => {
    expect(validatePackage(testdir(packageTree({ id: "pdf", kind: "skill" })))).toMatchObject({
      valid: true,
      resources: [{ kind: "skill", name: "pdf", path: "SKILL.md", componentRef: "skill:pdf" }],
    });
    const broken = validatePackage(
      testdir({ "plugin.json": "{}", "skills/x/SKILL.md": "nonsense" }),
    );
    expect(broken).toMatchObject({
      valid: false,
      manifestValid: false,
      manifest: undefined,
      resources: [],
    });
    expect(errors(broken.diagnostics)).toEqual(["key_missing", "key_missing"]);
  });

  it.each<[string, Record<string, unknown>, Tree, string[]]>([
    [
      "a skill that does not load",
      {},
      { "skills/bad/SKILL.md": "---\nname: bad\n---\nno description\n" },
      ["description_missing", "skill_catalog_invalid"],
    ],
    [
      "two skills with one name",
      {},
      { "skills/other/SKILL.md": skillFile("pdf", "Another pdf") },
      ["skill_catalog_invalid"],
    ],
    [
      "an empty skills folder",
      { resources: { skills: "skills" } },
      { "skills/pdf/SKILL.md": null },
      ["skill_catalog_invalid"],
    ],
    [
      "a prompt that cannot run",
      { resources: { prompts: "prompts" } },
      { "prompts/bad.md": Buffer.from([0x41, 0xc3, 0x28]) },
      ["file_not_utf8", "prompt_unavailable"],
    ],
    [
      "an agent binding a skill the package lacks",
      { resources: { agents: "agents" } },
      { "agents/planner.md": planner.replace("[pdf]", "[missing]") },
      ["bound_skill_unavailable"],
    ],
    [
      "a declared component that does not load",
      {
        resources: { agents: "agents" },
        components: [{ kind: "agent", id: "ghost", path: "agents/ghost.md" }],
      },
      { "agents/ghost.md": "no frontmatter\n" },
      ["frontmatter_missing", "component_not_loaded"],
    ],
    [
      "a nested agent component",
      {
        resources: { agents: "agents" },
        components: [{ kind: "agent", id: "deep", path: "agents/team/deep.md" }],
      },
      { "agents/team/deep.md": "---\nname: deep\ndescription: d\n---\nx\n" },
      ["component_nested"],
    ],
  ])("refuses %s", (_name, extension, files, expected) => {
    const result = validatePackage(plugin(extension, files));
    expect(result.valid).toBe(false);
    expect(errors(result.diagnostics).sort()).toEqual([...expected].sort());
  });

  it("refuses an agent package whose agent binds skills", () => {
    const dir = testdir({
      "plugin.json": JSON.stringify({
        name: "planner",
        version: "1.0.0",
        extensions: {
          skillshelf: {
            manifestVersion: 1,
            kind: "agent",
            resources: { agents: "agents" },
            components: [{ kind: "agent", id: "planner", path: "agents/planner.md" }],
          },
        },
      }),
      "agents/planner.md": planner,
    });
    expect(errors(validatePackage(dir).diagnostics)).toEqual(["package_shape"]);
  });

  it("applies the Agent Skills rules to a package's skills in strict mode", () => {
    const dir = plugin(
      {},
      { "skills/pdf/SKILL.md": skillFile("pdf-tools", "Name differs from folder") },
    );
    expect(validatePackage(dir).valid).toBe(true);
    expect(errors(validatePackage(dir, { mode: "strict" }).diagnostics)).toEqual(["name_mismatch"]);
  });

  it("reads a Claude Code plugin", () => {
    const dir = testdir({
      ".claude-plugin/plugin.json": JSON.stringify({ name: "review" }),
      "skills/check/SKILL.md": skillFile("check", "Checks"),
      "commands/go.md": "Go.\n",
    });
    expect(validatePackage(dir)).toMatchObject({
      valid: true,
      manifest: { format: "claude-code" },
      resources: [{ name: "check" }, { name: "go" }],
    });
  });
});

describe("validateSkill", () => {
  it("is lenient by default and applies the specification in strict mode", () => {
    const dir = testdir({ "notes/SKILL.md": skillFile("my-notes", "Notes", "color: blue\n") });
    expect(validateSkill(join(dir, "notes"))).toMatchObject({
      valid: true,
      resources: [{ kind: "skill", name: "my-notes" }],
    });
    const strict = validateSkill(join(dir, "notes"), { mode: "strict" });
    expect(strict.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["warning", "key_unknown"],
      ["error", "name_mismatch"],
    ]);
    expect(
      errors(validateSkill(join(dir, "notes"), { mode: "strict", strictKeys: true }).diagnostics),
    ).toEqual(["key_unknown", "name_mismatch"]);
    expect(errors(validateSkill(join(dir, "absent")).diagnostics)).toEqual(["path_missing"]);
  });
});

describe("skillCatalogValidity", () => {
  const skill = { path: "/s/a/SKILL.md" };
  it.each<
    [string, Parameters<typeof skillCatalogValidity>[0], ReturnType<typeof skillCatalogValidity>]
  >([
    ["a clean load", { items: [skill], diagnostics: [] }, { ok: true }],
    [
      "a benign warning on a loaded skill",
      {
        items: [skill],
        diagnostics: [createDiagnostic("warning", "file_large", "x", { path: skill.path })],
      },
      { ok: true },
    ],
    [
      "an error",
      {
        items: [skill],
        diagnostics: [createDiagnostic("error", "read_failed", "x", { path: "/s/b/SKILL.md" })],
      },
      { ok: false, reason: "load-error" },
    ],
    [
      "a collision",
      {
        items: [skill],
        diagnostics: [createDiagnostic("warning", "collision", "x", { path: "/s/c/SKILL.md" })],
      },
      { ok: false, reason: "collision" },
    ],
    [
      "a warning on a file that did not load",
      {
        items: [skill],
        diagnostics: [createDiagnostic("warning", "broken_link", "x", { path: "/s/d" })],
      },
      { ok: false, reason: "unloadable-file" },
    ],
    ["nothing", { items: [], diagnostics: [] }, { ok: false, reason: "no-skills" }],
  ])("%s", (_name, load, expected) => {
    expect(skillCatalogValidity(load)).toEqual(expected);
  });
});

describe("validateIndex", () => {
  it("checks rows, local sources, pins and requirements", () => {
    const dir = testdir({
      ...Object.fromEntries(
        Object.entries(packageTree({ id: "pdf" })).map(([path, entry]) => [
          `packages/pdf/${path}`,
          entry,
        ]),
      ),
    });
    const digest = digestTree(join(dir, "packages", "pdf")).digest;
    const row = (name: string, extra: Record<string, unknown> = {}) => ({
      kind: "plugin",
      name,
      description: name,
      sourceUrl: `./packages/${name}`,
      version: "1.0.0",
      sha256: digest,
      ...extra,
    });
    writeFileSync(
      join(dir, "library.yaml"),
      JSON.stringify([
        row("pdf", { requires: ["skill:base"] }),
        row("gone"),
        row("pdf-old", { sourceUrl: "./packages/pdf", sha256: "0".repeat(64) }),
        { name: "broken" },
      ]),
    );
    const result = validateIndex(join(dir, "library.yaml"));
    expect(result.valid).toBe(false);
    expect(result.rows.map((r) => r.name)).toEqual(["pdf", "gone", "pdf-old"]);
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.details?.name])).toEqual([
      ["error", "index_pin_mismatch", "pdf-old"],
      ["warning", "index_requirement_unresolved", "pdf"],
      ["error", "index_row_invalid", "broken"],
      ["error", "index_source_missing", "gone"],
    ]);
    mkdirSync(join(dir, "packages", "gone"));
    expect(
      validateIndex(join(dir, "library.yaml"), { verifyPins: false }).diagnostics.map(
        (d) => d.code,
      ),
    ).toEqual(["index_requirement_unresolved", "index_row_invalid"]);
  });
});
