import type { SkillProvenance } from "./types.js";

/** Keys accepted for each provenance field, kebab case first. */
const PROVENANCE_KEYS: Readonly<Record<keyof SkillProvenance, readonly string[]>> = {
  installUrl: ["source-url", "sourceUrl", "install-url"],
  registryId: ["registry-id", "registryId"],
  registryUrl: ["registry-url", "registryUrl"],
  installedAt: ["installed-at", "installedAt"],
  updatedAt: ["updated-at", "updatedAt"],
  installedHash: ["installed-hash", "installedHash"],
  audit: ["audit"],
  installedBy: ["installed-by", "installedBy"],
};

/** Install-lifecycle keys: stamped by installs, so left out of the normalized hash. */
export const LIFECYCLE_KEYS: readonly string[] = [
  ...PROVENANCE_KEYS.installUrl,
  ...PROVENANCE_KEYS.installedAt,
  ...PROVENANCE_KEYS.updatedAt,
  ...PROVENANCE_KEYS.installedHash,
  ...PROVENANCE_KEYS.audit,
  ...PROVENANCE_KEYS.installedBy,
];

const AUDIT_VALUES = new Set(["pass", "warn", "fail", "unknown"]);
// who installed it, as a name (`worker`, `skillshelf`, `npm:@acme/skills`): never prose, which a
// listing would show
const INSTALLER_NAME = /^[A-Za-z0-9][\w.@/:+-]{0,63}$/;
/** The values each field accepts beyond a non-empty string; a value outside them is left out. */
const ACCEPTS: Partial<Record<keyof SkillProvenance, (value: string) => boolean>> = {
  audit: (value) => AUDIT_VALUES.has(value),
  installedBy: (value) => INSTALLER_NAME.test(value),
};
const ANY_PROVENANCE_KEY = new Set(["skillshelf", ...Object.values(PROVENANCE_KEYS).flat()]);

/**
 * Read provenance from the frontmatter: each field from the `skillshelf:` block first, then from
 * the top level (the flat legacy form). Only non-empty strings count, trimmed; `audit` only as
 * `pass`, `warn`, `fail` or `unknown`; `installedBy` only as a name of up to 64 characters
 * (letters, digits and `_ . @ / : + -`, starting with a letter or digit: `worker`, `skillshelf`,
 * `npm:@acme/skills`), never a sentence. A value outside its field's rule is left out, and the
 * next spelling is not tried. Returns `undefined` when no field is present.
 */
export function extractProvenance(
  frontmatter: Readonly<Record<string, unknown>>,
): SkillProvenance | undefined {
  // most skills carry none: look at their few keys before trying every spelling
  if (!Object.keys(frontmatter).some((key) => ANY_PROVENANCE_KEY.has(key))) return undefined;
  const block = productBlock(frontmatter);
  const provenance: Record<string, string> = {};
  for (const [field, keys] of Object.entries(PROVENANCE_KEYS)) {
    const value = firstString(block, keys) ?? firstString(frontmatter, keys);
    if (value === undefined || ACCEPTS[field as keyof SkillProvenance]?.(value) === false) continue;
    provenance[field] = value;
  }
  return Object.keys(provenance).length === 0 ? undefined : (provenance as SkillProvenance);
}

/** The top-level `skillshelf:` mapping, or an empty one when absent or not a mapping. */
function productBlock(
  frontmatter: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const block = frontmatter.skillshelf;
  return isMapping(block) ? block : {};
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// --- internal ---

function firstString(
  source: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): string | undefined {
  for (const key of keys) {
    const value = source[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}
