import { join } from "node:path";
import { type LoadSkillsResult, loadSkills } from "@skillshelf/skills-loader";
import { CORPUS_DIR, corpusFiles } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const nowhere = {
  cwd: "/nonexistent/cwd",
  home: "/nonexistent/home",
  env: {},
  disableDiscovery: true,
} as const;

function loadOne(path: string): LoadSkillsResult {
  return loadSkills({ ...nowhere, explicitSkillPaths: [join(CORPUS_DIR, path)] });
}

const codesOf = (result: LoadSkillsResult) =>
  result.diagnostics.map((diagnostic) => diagnostic.code);

/** What each odd flag of the corpus manifest implies for a lenient load of that one file. */
const EXPECTATIONS: Record<string, (result: LoadSkillsResult) => void> = {
  "yaml-error": (result) => {
    const codes = codesOf(result);
    if (result.items.length === 0) expect(codes).toContain("frontmatter_invalid");
    else expect(codes).toContain("frontmatter_recovered");
  },
  "description-not-string": (result) => {
    expect(result.items).toEqual([]);
    expect(
      codesOf(result).some(
        (code) => code === "description_invalid" || code === "frontmatter_invalid",
      ),
    ).toBe(true);
  },
  "missing-description": (result) => {
    expect(result.items).toEqual([]);
    expect(codesOf(result)).toContain("description_missing");
  },
  "no-frontmatter": (result) => {
    expect(result.items).toEqual([]);
    expect(codesOf(result)).toContain("frontmatter_missing");
  },
  "missing-name": (result) => {
    expect(result.items[0]?.name).toBe(result.items[0]?.pathSubject);
    expect(codesOf(result)).toContain("name_missing");
  },
  "name-invalid": (result) => {
    expect(result.items).toHaveLength(1);
    expect(
      codesOf(result).some(
        (code) =>
          code === "name_invalid" ||
          code === "name_too_long" ||
          code === "skill_name_unaddressable_fallback",
      ),
    ).toBe(true);
  },
  "name-folder-mismatch": (result) => {
    expect(result.items).toHaveLength(1);
    // a name /skill <name> cannot address is replaced by the folder's, so they agree again
    expect(
      codesOf(result).some(
        (code) => code === "name_mismatch" || code === "skill_name_unaddressable_fallback",
      ),
    ).toBe(true);
  },
  "over-50KiB": (result) => {
    expect(result.items).toHaveLength(1);
    expect(codesOf(result)).toContain("file_large");
  },
  "description-over-1024": (result) => {
    expect(result.items).toHaveLength(1);
    expect(codesOf(result)).toContain("description_too_long");
  },
  crlf: (result) => {
    expect(result.items).toHaveLength(1);
    expect(result.items[0]?.description).not.toMatch(/\r/);
  },
  "filename-not-SKILL.md": (result) => {
    expect(result.items).toHaveLength(1);
    expect(codesOf(result)).toContain("skill_file_name");
  },
  "allowed-tools-comma": (result) => expectTools(result, ","),
  "allowed-tools-space": (result) => expectTools(result, " "),
  "allowed-tools-list": (result) => expectTools(result, undefined),
};

function expectTools(result: LoadSkillsResult, separator: string | undefined): void {
  const tools = result.items[0]?.allowedTools ?? [];
  expect(tools.length).toBeGreaterThan(0);
  // a string list is split at top level: no entry keeps a separator outside parentheses
  if (separator !== undefined)
    for (const tool of tools) expect(tool.replace(/\(.*\)/, "")).not.toContain(separator);
}

const REFUSING_FLAGS = new Set([
  "yaml-error",
  "description-not-string",
  "missing-description",
  "no-frontmatter",
]);

describe("every SKILL.md of the corpus", () => {
  const skills = corpusFiles("skill");

  it("is in the manifest", () => {
    expect(skills.length).toBeGreaterThan(150);
  });

  it.each(skills.map((file) => [file.path, file] as const))("%s", (_path, file) => {
    const result = loadOne(file.path);
    for (const flag of file.odd) EXPECTATIONS[flag]?.(result);
    if (!file.odd.some((flag) => REFUSING_FLAGS.has(flag))) {
      expect(result.items).toHaveLength(1);
      expect(result.diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual(
        [],
      );
    }
    for (const diagnostic of result.diagnostics)
      expect(diagnostic.path).toBe(join(CORPUS_DIR, file.path));
  });
});

describe("walking the whole corpus", () => {
  const result = loadSkills({ ...nowhere, explicitSkillPaths: [join(CORPUS_DIR, "skills")] });
  const paths = new Set(
    [
      ...result.items,
      ...result.collisions.flatMap((group) => group.losers.map((loss) => loss.item)),
    ].map((skill) => skill.path),
  );

  it("does not descend into a skill folder", () => {
    const nested = join(
      CORPUS_DIR,
      "skills/github-awesome-copilot/skills/qdrant-scaling/scaling-data-volume/tenant-scaling/SKILL.md",
    );
    expect(paths.has(nested)).toBe(false);
    expect(
      paths.has(
        join(
          CORPUS_DIR,
          "skills/github-awesome-copilot/skills/qdrant-scaling/scaling-data-volume/SKILL.md",
        ),
      ),
    ).toBe(true);
  });

  it("skips dot-folders", () => {
    expect([...paths].some((path) => path.includes("/."))).toBe(false);
  });

  it("reports the two pi calendar fixtures as a collision", () => {
    const calendar = result.collisions.find((group) => group.name === "calendar");
    expect(calendar?.winner.path).toMatch(/skills-collision\/first\/calendar\/SKILL\.md$/);
    expect(
      calendar?.losers.map((loss) => [loss.item.path.replace(CORPUS_DIR, ""), loss.reason]),
    ).toEqual([
      [
        "/skills/badlogic-pi-mono/packages/coding-agent/test/fixtures/skills-collision/second/calendar/SKILL.md",
        "path",
      ],
    ]);
  });

  it("is byte-identical across runs", () => {
    const again = loadSkills({ ...nowhere, explicitSkillPaths: [join(CORPUS_DIR, "skills")] });
    expect(JSON.stringify(again)).toBe(JSON.stringify(result));
  });
});
