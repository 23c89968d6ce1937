import { type Code, createDiagnostic, type Diagnostic, detailsOf } from "@skillshelf/core";
import { nameProblems, type Skill, SPEC_KEYS } from "@skillshelf/skills-loader";

/** Longest `compatibility` text the specification allows. */
export const MAX_COMPATIBILITY_LENGTH = 500;

/** Lenient findings that the specification makes errors. */
const STRICT_ERRORS = new Set([
  "name_invalid",
  "name_too_long",
  "name_mismatch",
  "name_missing",
  "skill_name_unaddressable",
  "description_too_long",
  "frontmatter_recovered",
  "skill_file_name",
]);

/**
 * Apply the Agent Skills rules on top of a lenient load: the findings above become errors, and the
 * frontmatter of each loaded skill is checked for the spec's keys only (warnings, errors with
 * `strictKeys`), `compatibility` as text of at most 500 characters, `metadata` as a mapping of text
 * to text, `license` as text and `allowed-tools` as one space-separated string.
 */
export function strictSkillDiagnostics(
  skills: readonly Skill[],
  lenient: readonly Diagnostic[],
  options: { readonly strictKeys: boolean },
): Diagnostic[] {
  const upgraded = lenient.flatMap((diagnostic) =>
    diagnostic.code === "skill_name_unaddressable_fallback"
      ? writtenNameProblems(diagnostic)
      : STRICT_ERRORS.has(diagnostic.code) && diagnostic.severity !== "error"
        ? [{ ...diagnostic, severity: "error" as const }]
        : [diagnostic],
  );
  return [
    ...upgraded,
    ...skills.flatMap((skill) =>
      frontmatterProblems(skill.frontmatter, skill.path, options.strictKeys),
    ),
  ];
}

// --- internal ---

/** The specification judges the name as written, not the folder name a lenient load fell back to. */
function writtenNameProblems(fallback: Diagnostic): Diagnostic[] {
  const written = detailsOf(fallback, "skill_name_unaddressable_fallback");
  const name = written?.name ?? "";
  const subject = written?.subject ?? "";
  const place = { path: fallback.path, details: { name } };
  return [
    ...nameProblems(name).map((problem) =>
      createDiagnostic("error", problem.code, problem.message, place),
    ),
    createDiagnostic(
      "error",
      "name_mismatch",
      `name "${name}" differs from its folder "${subject}"`,
      { ...place, details: { name, subject } },
    ),
  ];
}

function frontmatterProblems(
  frontmatter: Readonly<Record<string, unknown>>,
  path: string,
  strictKeys: boolean,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const error = (code: Code, message: string, details?: Record<string, unknown>) =>
    problems.push(createDiagnostic("error", code, message, { path, details }));
  const unknown = Object.keys(frontmatter).filter((key) => !SPEC_KEYS.includes(key));
  if (unknown.length > 0) {
    problems.push(
      createDiagnostic(
        strictKeys ? "error" : "warning",
        "key_unknown",
        `keys outside the Agent Skills specification: ${unknown.join(", ")}`,
        {
          path,
          details: { keys: unknown },
        },
      ),
    );
  }
  const { compatibility, metadata, license } = frontmatter;
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string" || compatibility.trim() === "")
      error("compatibility_invalid", "compatibility must be non-empty text");
    else if ([...compatibility].length > MAX_COMPATIBILITY_LENGTH) {
      error(
        "compatibility_too_long",
        `compatibility is ${[...compatibility].length} characters, over the ${MAX_COMPATIBILITY_LENGTH}-character limit`,
      );
    }
  }
  if (metadata !== undefined) {
    const entries =
      typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)
        ? Object.entries(metadata)
        : undefined;
    const nonText = entries?.filter(([, value]) => typeof value !== "string").map(([key]) => key);
    if (entries === undefined)
      error("metadata_invalid", "metadata must be a mapping of text keys to text values");
    else if (nonText !== undefined && nonText.length > 0) {
      error("metadata_invalid", `metadata values must be text; quote ${nonText.join(", ")}`, {
        keys: nonText,
      });
    }
  }
  if (license !== undefined && typeof license !== "string")
    error("field_invalid", "license must be text", { key: "license" });
  if (
    frontmatter["allowed-tools"] !== undefined &&
    typeof frontmatter["allowed-tools"] !== "string"
  ) {
    error(
      "field_invalid",
      "allowed-tools must be one space-separated string, for example `Bash(git:*) Read`",
      { key: "allowed-tools" },
    );
  }
  return problems;
}
