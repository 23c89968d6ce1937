import { join } from "node:path";
import {
  CORPUS_DIR,
  corpusFiles,
  flowStyleAllowedVerdicts,
  skillFile,
  strictVerdicts,
  testdir,
} from "@skillshelf/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { runMain } from "./_run.js";

type Verdict = {
  valid: boolean;
  strict: boolean;
  results: {
    path: string;
    kind: string;
    valid: boolean;
    names: string[];
    diagnostics: { severity: string; code: string; path?: string }[];
  }[];
};

async function validate(
  args: string[],
  cwd: string,
): Promise<{ status: number | null; verdict: Verdict }> {
  const result = await runMain(["validate", "--json", ...args], {
    cwd,
    env: { HOME: "/nonexistent" },
  });
  return { status: result.status, verdict: JSON.parse(result.stdout) as Verdict };
}

describe("skillshelf validate", () => {
  const dir = testdir({
    "good/SKILL.md": skillFile("good", "A valid skill."),
    "mismatch/SKILL.md": skillFile("other-name", "Name differs from the folder."),
    "extra/SKILL.md": skillFile("extra", "Has a vendor key.", "disable-model-invocation: true\n"),
    "meta/SKILL.md": skillFile("meta", "Metadata with a number.", "metadata:\n  version: 2\n"),
    "compat/SKILL.md": skillFile(
      "compat",
      "Long compatibility.",
      `compatibility: ${"c".repeat(501)}\n`,
    ),
    "list-tools/SKILL.md": skillFile("list-tools", "Tools as a list.", "allowed-tools: [Read]\n"),
    "recovered/SKILL.md": "---\nname: recovered\ndescription: Fix it. Usage: /recovered\n---\n",
    "broken/SKILL.md": "---\nname: broken\n---\n",
    "upper/SKILL.MD": skillFile("upper", "Upper-case file name."),
  });

  it.each([
    // path, lenient exit, strict exit, strict codes
    ["good", 0, 0, []],
    ["good/SKILL.md", 0, 0, []],
    ["mismatch", 0, 1, ["error:name_mismatch"]],
    ["extra", 0, 0, ["warning:key_unknown"]],
    ["meta", 0, 1, ["error:metadata_invalid"]],
    ["compat", 0, 1, ["error:compatibility_too_long"]],
    ["list-tools", 0, 1, ["error:field_invalid"]],
    ["recovered", 0, 1, ["error:frontmatter_recovered"]],
    ["broken", 1, 1, ["error:description_missing"]],
    ["upper", 0, 1, ["error:skill_file_name"]],
    ["absent", 1, 1, ["error:path_missing"]],
  ])("%s: lenient %i, strict %i %j", async (path, lenientStatus, strictStatus, strictCodes) => {
    const lenient = await validate([path], dir);
    expect(lenient.status).toBe(lenientStatus);
    expect(lenient.verdict.valid).toBe(lenientStatus === 0);
    const strict = await validate(["--strict", path], dir);
    expect(strict.status).toBe(strictStatus);
    expect(
      strict.verdict.results[0]?.diagnostics.map(
        (diagnostic) => `${diagnostic.severity}:${diagnostic.code}`,
      ),
    ).toEqual(strictCodes);
    expect(strict.verdict.results[0]?.path).toBe(join(dir, path));
  });

  it("turns unknown keys into errors with --strict-keys", async () => {
    expect((await validate(["--strict", "--strict-keys", "extra"], dir)).status).toBe(1);
  });

  it("validates several paths and a folder of skills at once", async () => {
    const { status, verdict } = await validate(["good", "mismatch", "."], dir);
    expect(status).toBe(1);
    // "." is read as install reads it: skill folders at its root (upper/SKILL.MD is no SKILL.md)
    expect(verdict.results.map((result) => [result.valid, result.names.length])).toEqual([
      [true, 1],
      [true, 1],
      [false, 7],
    ]);
  });

  it("prints a readable report without --json", async () => {
    const result = await runMain(["validate", "good", "broken"], {
      cwd: dir,
      env: { HOME: "/nonexistent" },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatchInlineSnapshot(`
      "valid   good (1 skill)
      invalid broken (0 skills)
        error description_missing broken/SKILL.md: description is required
          hint: add a \`description:\` saying what the skill does and when to use it
      "
    `);
  });
});

/** skills-ref categories, mapped to our codes. */
const CATEGORY_CODES: Record<string, string> = {
  "unexpected-fields": "key_unknown",
  "missing-name": "name_missing",
  "missing-description": "description_missing",
  "name-too-long": "name_too_long",
  "name-format": "name_invalid",
  "name-dir-mismatch": "name_mismatch",
  "description-too-long": "description_too_long",
  "compatibility-too-long": "compatibility_too_long",
  "frontmatter-missing": "frontmatter_missing",
  "frontmatter-unclosed": "frontmatter_unclosed",
  "not-mapping": "frontmatter_not_mapping",
  "skill-md-missing": "skill_file_name",
};

/** Checks we make that the reference validator does not (it never checks these types). */
const OURS_ONLY = new Set(["metadata_invalid", "field_invalid", "compatibility_invalid"]);

describe("strict mode agrees with the Agent Skills reference validator on the corpus", () => {
  const verdicts = strictVerdicts();
  const flowAllowed = flowStyleAllowedVerdicts();
  const files = corpusFiles("skill").map((file) => file.path);
  let verdict: Verdict;
  beforeAll(async () => {
    ({ verdict } = await validate(["--strict", "--strict-keys", ...files], CORPUS_DIR));
  });

  it.each(files.map((path, index) => [path, index] as const))("%s", (path, index) => {
    const reference = verdicts.get(path);
    if (reference === undefined) throw new Error(`no reference verdict for ${path}`);
    // the reference rejects YAML flow style, which YAML 1.2 allows: compare with what it finds once allowed
    const categories = reference.categories.some((category) =>
      category.startsWith("strictyaml-only"),
    )
      ? (flowAllowed.get(path)?.categories ?? [])
      : reference.categories.filter(
          (category) => category !== "frontmatter-invalid-yaml" && category !== "yaml-syntax-error",
        );
    const expected = new Set(
      categories.map((category) => CATEGORY_CODES[category.split(":")[0] as string] ?? category),
    );
    if (reference.categories.includes("yaml-syntax-error")) expected.add("frontmatter_invalid");
    const result = verdict.results[index];
    const ours = new Set(
      result?.diagnostics
        .filter((d) => d.severity === "error" && !OURS_ONLY.has(d.code))
        .map((d) => d.code),
    );
    // the reference stops at a missing SKILL.md; we go on and may find more
    if (expected.has("skill_file_name")) expect(ours.has("skill_file_name")).toBe(true);
    else expect([...ours].sort()).toEqual([...expected].sort());
  });
});
