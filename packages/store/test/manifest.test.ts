import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestTree, skillPackageManifestText } from "@skillshelf/core";
import {
  createScopeCache,
  hasManifestEntry,
  readPackageManifest,
  skillPackageManifest,
} from "@skillshelf/store";

// what readPackageManifest answers where hasManifestEntry sees nothing
const manifestMissing = (dir: string) =>
  readPackageManifest(dir).diagnostics.some((diagnostic) => diagnostic.code === "manifest_missing");

import { link, packageTree, type Tree, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const codes = (dir: string) =>
  readPackageManifest(dir)
    .diagnostics.filter((diagnostic) => diagnostic.severity === "error")
    .map((diagnostic) => diagnostic.code);

function manifestTree(manifest: Record<string, unknown>, files: Tree = {}): Tree {
  return { "plugin.json": JSON.stringify(manifest), ...files };
}

const base = { name: "demo", version: "1.0.0" };
const ext = (block: Record<string, unknown>) => ({
  ...base,
  extensions: { skillshelf: { manifestVersion: 1, ...block } },
});
const skillMd = "---\nname: x\ndescription: y\n---\nz\n";

describe("readPackageManifest, our format", () => {
  it("reads a plugin with skills and prompts", () => {
    const dir = testdir(
      packageTree({
        id: "tools",
        version: "2.1.0-rc.1",
        skills: ["a", "b"],
        prompts: ["fix"],
        requires: ["skill:base"],
      }),
    );
    const read = readPackageManifest(dir);
    const { diagnostics } = read;
    const manifest = read.ok ? read.value : undefined;
    expect(diagnostics).toEqual([]);
    expect(manifest).toMatchObject({
      id: "tools",
      version: "2.1.0-rc.1",
      format: "skillshelf",
      kind: "plugin",
      requires: ["skill:base"],
      resources: [
        { kind: "prompts", path: "prompts" },
        { kind: "skills", path: "skills" },
      ],
      manifestPath: join(dir, "plugin.json"),
    });
    expect(manifest?.manifestDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads a skill package and a plain Agent Plugins manifest", () => {
    expect(manifestOf(testdir(packageTree({ id: "pdf", kind: "skill" })))?.kind).toBe("skill");
    const plain = testdir(
      packageTree({ id: "plain", extension: null, files: { "skills/plain/SKILL.md": skillMd } }),
    );
    expect(manifestOf(plain)).toMatchObject({
      kind: "plugin",
      resources: [{ kind: "skills", path: "skills" }],
    });
  });

  it.each<[string, Tree, string[]]>([
    ["a missing name", manifestTree({ version: "1.0.0" }), ["key_missing"]],
    ["a bad id", manifestTree({ name: "Demo", version: "1.0.0" }), ["field_invalid"]],
    [
      "the id state.json",
      manifestTree({ name: "state.json", version: "1.0.0" }),
      ["field_invalid"],
    ],
    ["a missing version", manifestTree({ name: "demo" }), ["key_missing"]],
    ["a version range", manifestTree({ name: "demo", version: "^1.0.0" }), ["field_invalid"]],
    ["an unknown key", manifestTree({ ...base, main: "x.js" }), ["key_unknown"]],
    [
      "another $schema",
      manifestTree({ ...base, $schema: "https://example.com/s.json" }),
      ["field_invalid"],
    ],
    ["manifestVersion 2", manifestTree(ext({ manifestVersion: 2 })), ["manifest_unsupported"]],
    ["manifestVersion 0", manifestTree(ext({ manifestVersion: 0 })), ["field_invalid"]],
    ["an unknown declaration", manifestTree(ext({ themes: "themes" })), ["key_unknown"]],
    ["an untyped requirement", manifestTree(ext({ requires: ["pdf"] })), ["field_invalid"]],
    ["an unknown kind", manifestTree(ext({ kind: "theme" })), ["field_invalid"]],
    [
      "a path that climbs out",
      manifestTree(ext({ resources: { prompts: "../prompts" } })),
      ["path_invalid"],
    ],
    ["an absolute path", manifestTree(ext({ resources: { prompts: "/etc" } })), ["path_invalid"]],
    ["a backslash path", manifestTree(ext({ resources: { prompts: "a\\b" } })), ["path_invalid"]],
    [
      "the root as a plugin's folder",
      manifestTree(ext({ resources: { prompts: "." } })),
      ["path_invalid"],
    ],
    [
      "skills outside skills/",
      manifestTree(ext({ resources: { skills: "lib/skills" } }), {
        "lib/skills/x/SKILL.md": skillMd,
      }),
      ["skills_root"],
    ],
    [
      "a missing folder",
      manifestTree(ext({ resources: { prompts: "prompts" } })),
      ["path_missing"],
    ],
    [
      "a file as a folder",
      manifestTree(ext({ resources: { prompts: "prompts" } }), { prompts: "x" }),
      ["path_kind"],
    ],
    [
      "a folder that escapes through a symlink",
      manifestTree(ext({ resources: { prompts: "prompts" } }), { prompts: link("/tmp") }),
      ["path_escape"],
    ],
    [
      "a repeated component",
      manifestTree(
        ext({
          components: [
            { kind: "script", id: "a", path: "a.sh" },
            { kind: "script", id: "a", path: "a.sh" },
          ],
        }),
        { "a.sh": "x" },
      ),
      ["component_duplicate"],
    ],
    [
      "a requirement on an undeclared component",
      manifestTree(
        ext({ components: [{ kind: "script", id: "a", path: "a.sh", requires: ["tool:b"] }] }),
        { "a.sh": "x" },
      ),
      ["component_requires_unknown"],
    ],
    [
      "components requiring each other",
      manifestTree(
        ext({
          components: [
            { kind: "script", id: "a", path: "a.sh", requires: ["tool:b"] },
            { kind: "tool", id: "b", path: "b.sh", requires: ["script:a"] },
          ],
        }),
        { "a.sh": "x", "b.sh": "y" },
      ),
      ["component_cycle"],
    ],
    [
      "a skill component that is not a SKILL.md",
      manifestTree(ext({ components: [{ kind: "skill", id: "a", path: "skills/a/README.md" }] }), {
        "skills/a/README.md": "x",
      }),
      ["component_not_skill_file"],
    ],
    [
      "a prompt component outside the prompts folder",
      manifestTree(
        ext({
          resources: { prompts: "prompts" },
          components: [{ kind: "prompt", id: "a", path: "a.md" }],
        }),
        { "prompts/b.md": "x", "a.md": "x" },
      ),
      ["component_outside_root"],
    ],
    [
      "a skill package with two skills",
      manifestTree(
        ext({
          kind: "skill",
          resources: { skills: "." },
          components: [
            { kind: "skill", id: "a", path: "SKILL.md" },
            { kind: "skill", id: "b", path: "b/SKILL.md" },
          ],
        }),
        { "SKILL.md": skillMd, "b/SKILL.md": skillMd },
      ),
      ["package_shape"],
    ],
    [
      "a skill package with a prompts folder",
      manifestTree(
        ext({
          kind: "skill",
          resources: { skills: ".", prompts: "prompts" },
          components: [{ kind: "skill", id: "a", path: "SKILL.md" }],
        }),
        { "SKILL.md": skillMd, "prompts/x.md": "x" },
      ),
      ["package_shape"],
    ],
    [
      "a component file that is missing",
      manifestTree(ext({ components: [{ kind: "script", id: "a", path: "a.sh" }] })),
      ["path_missing"],
    ],
  ])("refuses %s", (_name, tree, expected) => {
    const dir = testdir(tree);
    expect(codes(dir)).toEqual(expected);
    expect(manifestOf(dir)).toBeUndefined();
    expect(readPackageManifest(dir).diagnostics[0]?.path).toBe(join(dir, "plugin.json"));
  });

  it.each<[string, (dir: string) => string, string]>([
    ["no manifest", (dir) => dir, "manifest_missing"],
    ["no folder", (dir) => join(dir, "absent"), "package_missing"],
    [
      "a file",
      (dir) => {
        writeFileSync(join(dir, "file"), "x");
        return join(dir, "file");
      },
      "package_missing",
    ],
    [
      "invalid JSON",
      (dir) => {
        writeFileSync(join(dir, "plugin.json"), "{ nope");
        return dir;
      },
      "manifest_json",
    ],
    [
      "a manifest linked from outside",
      (dir) => {
        const outside = testdir({ "plugin.json": JSON.stringify(base) });
        symlinkSync(join(outside, "plugin.json"), join(dir, "plugin.json"));
        return dir;
      },
      "path_escape",
    ],
    [
      "an oversized manifest",
      (dir) => {
        writeFileSync(join(dir, "plugin.json"), " ".repeat(1024 * 1024 + 1));
        return dir;
      },
      "file_too_large",
    ],
  ])("refuses %s", (_name, prepare, code) => {
    expect(codes(prepare(testdir()))).toEqual([code]);
  });
});

describe("readPackageManifest with a known tree digest", () => {
  it("reuses a clean read for a tree of that digest elsewhere, and reads anything else", () => {
    const cache = createScopeCache();
    const tree = packageTree({ id: "tools", version: "1.0.0", skills: ["a"] });
    const [first, second] = [testdir(tree), testdir(tree)];
    const digest = digestTree(first).digest;
    const read = readPackageManifest(first, { digest, cache });
    // the second folder's manifest is made unreadable: the reuse shows it was not read
    writeFileSync(join(second, "plugin.json"), "{");
    const reused = readPackageManifest(second, { digest, cache });
    expect(reused).toEqual({
      ok: true,
      value: read.ok && { ...read.value, manifestPath: join(second, "plugin.json") },
      diagnostics: [],
    });
    expect(readPackageManifest(second, { digest: digestTree(second).digest, cache }).ok).toBe(
      false,
    );
  });

  it("keeps no read with a finding", () => {
    const cache = createScopeCache();
    const dir = testdir(manifestTree({ name: "x", version: "1.0.0", color: "red" }));
    const read = readPackageManifest(dir, { digest: digestTree(dir).digest, cache });
    expect(read.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["key_unknown"]);
    expect(cache.manifests.size).toBe(0);
  });
});

describe("hasManifestEntry", () => {
  it("sees any entry where a manifest is read, readable or not, and nothing else", () => {
    expect(hasManifestEntry(testdir({ "plugin.json": "not json" }))).toBe(true);
    expect(hasManifestEntry(testdir({ ".claude-plugin/plugin.json": "{}" }))).toBe(true);
    expect(hasManifestEntry(testdir({ "plugin.json": link("missing.json") }))).toBe(true);
    expect(hasManifestEntry(testdir({ "SKILL.md": "x", "skills/plugin.json": "{}" }))).toBe(false);
    expect(manifestMissing(testdir({ "SKILL.md": "x" }))).toBe(true);
  });
});

describe("skillPackageManifest", () => {
  const skills = [
    { name: "demo", version: "0.0.0", description: "" },
    { name: "pdf-tools", version: "2.1.0-rc.1", description: "Fill in forms.", license: "MIT" },
  ];

  it("is what reading the plugin.json written for the skill finds, kept by digest", () => {
    for (const skill of skills) {
      const dir = testdir({ "plugin.json": skillPackageManifestText(skill), "SKILL.md": skillMd });
      const cache = createScopeCache();
      const digest = digestTree(dir).digest;
      const made = skillPackageManifest(dir, skill, { digest, cache });
      expect(made).toEqual(readPackageManifest(dir));
      expect(made.ok && made.value.id).toBe(skill.name);
      expect(cache.manifests.get(digest)?.manifest).toEqual(made.ok && made.value);
    }
  });

  it("checks the folder and its SKILL.md as a read checks them", () => {
    const [skill] = skills as [(typeof skills)[0]];
    const text = skillPackageManifestText(skill);
    for (const files of [
      {},
      { "SKILL.md/notes.md": "x" },
      { "SKILL.md": link("/etc/hostname") },
      { "SKILL.md": link("notes.md"), "notes.md": skillMd },
    ] satisfies Tree[]) {
      const dir = testdir(files);
      const made = skillPackageManifest(dir, skill);
      writeFileSync(join(dir, "plugin.json"), text);
      expect(made.diagnostics.map((d) => [d.code, d.path])).toEqual(
        readPackageManifest(dir).diagnostics.map((d) => [d.code, d.path]),
      );
    }
    expect(codes(testdir({ "plugin.json": text }))).toEqual(["path_missing"]);
    const gone = join(testdir({}), "gone");
    expect(skillPackageManifest(gone, skill).diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["package_missing", gone],
    ]);
  });
});

describe("readPackageManifest, Claude Code plugins", () => {
  it("reads skills/, commands/ and agents/ as a foreign-format plugin", () => {
    const dir = testdir({
      ".claude-plugin/plugin.json": JSON.stringify({
        name: "review",
        description: "Reviews",
        hooks: "./hooks/hooks.json",
        skills: "./extra-skills/",
      }),
      "skills/a/SKILL.md": skillMd,
      "extra-skills/b/SKILL.md": skillMd,
      "commands/go.md": "Go.",
      "agents/critic.md": "---\nname: critic\ndescription: c\n---\nx\n",
    });
    const read = readPackageManifest(dir);
    const { diagnostics } = read;
    const manifest = read.ok ? read.value : undefined;
    expect(manifest).toMatchObject({
      id: "review",
      version: undefined,
      format: "claude-code",
      kind: "plugin",
      resources: [
        { kind: "skills", path: "skills" },
        { kind: "skills", path: "extra-skills" },
        { kind: "prompts", path: "commands" },
        { kind: "agents", path: "agents" },
      ],
    });
    expect(diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code])).toEqual([
      ["info", "not_run"],
    ]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["an unknown key", { name: "x", color: "red" }, ["warning:key_ignored"]],
    ["a non-SemVer version", { name: "x", version: "v2" }, ["warning:version_invalid"]],
    ["a name that is no package id", { name: "My Plugin" }, ["error:field_invalid"]],
    ["no name", { description: "x" }, ["error:key_missing"]],
    ["an escaping folder", { name: "x", commands: "../../etc" }, ["error:path_invalid"]],
    ["a missing folder", { name: "x", agents: ["./missing"] }, ["error:path_missing"]],
  ])("reports %s", (_name, manifest, expected) => {
    const dir = testdir({ ".claude-plugin/plugin.json": JSON.stringify(manifest) });
    expect(readPackageManifest(dir).diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual(
      expected,
    );
  });

  it("prefers our plugin.json when both are present", () => {
    const dir = testdir({
      ...packageTree({ id: "both" }),
      ".claude-plugin/plugin.json": JSON.stringify({ name: "other" }),
    });
    expect(manifestOf(dir)).toMatchObject({ id: "both", format: "skillshelf" });
  });
});

/** The manifest a folder's plugin.json gives, when it is valid. */
function manifestOf(dir: string) {
  const read = readPackageManifest(dir);
  return read.ok ? read.value : undefined;
}
