import { type Code, createDiagnostic, type Diagnostic } from "@skillshelf/core";
import { parseSkillCommand } from "./commands.js";
import { extractProvenance, isMapping } from "./provenance.js";
import { parseToolList } from "./tools.js";
import type { SkillProvenance } from "./types.js";

/** What a skill's frontmatter says, before roots, trust and host tools are applied. */
export interface SkillFields {
  readonly name: string;
  /** `/skill <name>` can name it (see `isAddressableName`). */
  readonly addressable: boolean;
  readonly description: string;
  readonly disableModelInvocation: boolean;
  /** False for `user-invocable: false`: the operator cannot start it by name. */
  readonly userInvocable: boolean;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly allowedTools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  readonly requires: readonly string[];
  readonly provenance?: SkillProvenance;
}

/** The Agent Skills name rule: lowercase letters and digits in hyphen-separated groups. */
export const SKILL_NAME_PATTERN: RegExp = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;

/** The only top-level keys the Agent Skills specification defines. */
export const SPEC_KEYS: readonly string[] = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];

/** Keys with a meaning to skill loaders; a key differing from one only in case is a likely typo. */
const KNOWN_KEYS = [...SPEC_KEYS, "disallowed-tools", "disable-model-invocation", "user-invocable"];

/**
 * Read a skill's fields leniently, as an agent does: only a missing or non-text `description`
 * refuses the skill (an error); name problems, long descriptions and mistyped fields are warnings.
 * `subject` is the folder (or loose file) name the name defaults to.
 */
export function readSkillFields(
  frontmatter: Readonly<Record<string, unknown>>,
  subject: string,
  path: string,
): { fields: SkillFields | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const warn = (code: Code, message: string, details?: Record<string, unknown>) =>
    diagnostics.push(createDiagnostic("warning", code, message, { path, details }));

  const description = frontmatter.description;
  if (typeof description !== "string" || description.trim() === "") {
    const present =
      description !== undefined && description !== null && typeof description !== "string";
    diagnostics.push(
      present
        ? createDiagnostic(
            "error",
            "description_invalid",
            `description must be text, not ${describe(description)}`,
            { path },
          )
        : createDiagnostic("error", "description_missing", "description is required", { path }),
    );
    return { fields: undefined, diagnostics };
  }
  const length = characterCount(description.trim());
  if (length > MAX_DESCRIPTION_LENGTH) {
    warn(
      "description_too_long",
      `description is ${length} characters, over the ${MAX_DESCRIPTION_LENGTH}-character limit`,
      { length },
    );
  }

  const { name, addressable } = addressableName(
    readName(frontmatter.name, subject, path, diagnostics),
    subject,
    warn,
  );
  for (const problem of nameProblems(name)) warn(problem.code, problem.message, { name });
  if (name !== subject)
    warn("name_mismatch", `name "${name}" differs from its folder "${subject}"; using "${name}"`, {
      name,
      subject,
    });

  for (const key of Object.keys(frontmatter)) {
    const known = /[A-Z]/.test(key)
      ? KNOWN_KEYS.find((candidate) => candidate === key.toLowerCase())
      : undefined;
    if (known !== undefined)
      warn(
        "key_case",
        `"${key}" is not "${known}": keys are case-sensitive, so it is not read as ${known}`,
        { key },
      );
  }

  const disable = frontmatter["disable-model-invocation"];
  const userInvocable = frontmatter["user-invocable"];
  for (const [key, value] of [
    ["disable-model-invocation", disable],
    ["user-invocable", userInvocable],
  ] as const)
    if (value !== undefined && typeof value !== "boolean")
      warn("field_invalid", `${key} must be true or false; it is ignored`, { key });
  if (frontmatter.skillshelf !== undefined && !isMapping(frontmatter.skillshelf)) {
    warn("field_invalid", "skillshelf must be a mapping; it is ignored", { key: "skillshelf" });
  }
  const allowedTools = readTools(frontmatter, "allowed-tools", warn);
  const disallowedTools = readTools(frontmatter, "disallowed-tools", warn);
  const provenance = extractProvenance(frontmatter);
  return {
    fields: {
      name,
      addressable,
      description: description.trim(),
      disableModelInvocation: disable === true,
      userInvocable: userInvocable !== false,
      frontmatter,
      requires: readRequires(frontmatter.requires),
      ...(allowedTools === undefined ? {} : { allowedTools }),
      ...(disallowedTools === undefined ? {} : { disallowedTools }),
      ...(provenance === undefined ? {} : { provenance }),
    },
    diagnostics,
  };
}

/** Problems of a name against the Agent Skills rules, as `name_too_long` / `name_invalid` codes. */
export function nameProblems(name: string): { code: Code; message: string }[] {
  const problems: { code: Code; message: string }[] = [];
  const length = characterCount(name);
  if (length > MAX_NAME_LENGTH) {
    problems.push({
      code: "name_too_long",
      message: `name is ${length} characters, over the ${MAX_NAME_LENGTH}-character limit`,
    });
  }
  if (!SKILL_NAME_PATTERN.test(name)) {
    problems.push({
      code: "name_invalid",
      message: `name "${name}" should use only lowercase letters, digits and single hyphens, not at either end`,
    });
  }
  return problems;
}

// --- internal ---

function readName(
  value: unknown,
  subject: string,
  path: string,
  diagnostics: Diagnostic[],
): string {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (value === undefined || value === null || typeof value === "string") {
    diagnostics.push(
      createDiagnostic(
        "info",
        "name_missing",
        `no name given; using the folder name "${subject}"`,
        { path },
      ),
    );
  } else {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "field_invalid",
        `name must be text, not ${describe(value)}; using "${subject}"`,
        { path, details: { key: "name" } },
      ),
    );
  }
  return subject;
}

/**
 * A name `/skill <name>` cannot name (it holds a space or a control character) falls back to the
 * folder name when that can be named (`skill_name_unaddressable_fallback`); otherwise it is kept
 * and the skill is not addressable (`skill_name_unaddressable`): listed, never offered to a model.
 */
function addressableName(
  name: string,
  subject: string,
  warn: (code: Code, message: string, details?: Record<string, unknown>) => void,
): { name: string; addressable: boolean } {
  if (isAddressableName(name)) return { name, addressable: true };
  if (isAddressableName(subject)) {
    warn(
      "skill_name_unaddressable_fallback",
      `name ${JSON.stringify(name)} cannot be typed as /skill <name>; using the folder name "${subject}"`,
      { name, subject },
    );
    return { name: subject, addressable: true };
  }
  warn(
    "skill_name_unaddressable",
    `name ${JSON.stringify(name)} cannot be typed as /skill <name>, nor can its folder's; it is not offered to a model`,
    { name, subject },
  );
  return { name, addressable: false };
}

/** True when `/skill <name>` reads back exactly `name`: one word, no control characters. */
export function isAddressableName(name: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  return !/[\u0000-\u001f\u007f]/.test(name) && parseSkillCommand(`/skill ${name}`)?.name === name;
}

function readTools(
  frontmatter: Readonly<Record<string, unknown>>,
  key: "allowed-tools" | "disallowed-tools",
  warn: (code: Code, message: string, details?: Record<string, unknown>) => void,
): string[] | undefined {
  const value = frontmatter[key];
  if (value === undefined || value === null) return undefined;
  const tools = parseToolList(value);
  if (
    tools === undefined ||
    (Array.isArray(value) && value.some((item) => typeof item !== "string"))
  ) {
    warn(
      "field_invalid",
      `${key} must be a list of tool names or one string of them; ${tools === undefined ? "it is ignored" : "entries that are not text are ignored"}`,
      { key },
    );
  }
  return tools;
}

function readRequires(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is string => typeof item === "string" && item.includes(":"))
    .map((item) => item.trim());
}

/** Length in Unicode code points, as the specification counts; cheap for ASCII-length checks. */
function characterCount(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // a high surrogate followed by a low one is one character
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) count -= 1;
    }
  }
  return count;
}

const SURROGATE = /[\ud800-\udfff]/;

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "empty";
  return typeof value === "object" ? "a mapping" : `a ${typeof value}`;
}
