import { normalizeRelativePath, SkillshelfError } from "@skillshelf/core";

/**
 * One skill a site's `.well-known` index lists: a `SKILL.md` or an archive at `url` with its
 * `sha256` (discovery RFC 0.2.0), or the files of the older `/.well-known/skills/` index, each
 * at `urls` (no digests: the tree digest in the lock pins what was read).
 */
export type SiteSkill =
  | {
      readonly name: string;
      readonly type: "skill-md" | "archive";
      readonly url: string;
      readonly sha256: string;
      /** Where its detached SSH signature of the downloaded bytes is (`signature`, an extension). */
      readonly signature?: string | undefined;
    }
  | { readonly name: string; readonly type: "files"; readonly files: readonly SiteFile[] };

/** One file of an older index's skill: its path inside the skill and where it is served. */
interface SiteFile {
  readonly path: string;
  readonly url: string;
}

// a skill's name as the Agent Skills specification writes it; it becomes a folder's name here
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const DIGEST = /^sha256:([0-9a-f]{64})$/;

/**
 * The skills of the index served at `indexUrl` (`bytes`), every entry's URL resolved against it.
 * Anything that is not such an index (not JSON, no `skills` list, an entry without a name of the
 * specification's form, a name listed twice, a missing URL or digest, a file path that leaves
 * its skill) is `site_index_invalid` naming the URL and the entry. Entries of a type the RFC
 * does not define are left out, as it asks clients to do.
 */
export function parseSiteIndex(bytes: Uint8Array, indexUrl: string): SiteSkill[] {
  const invalid = (problem: string) =>
    new SkillshelfError("site_index_invalid", `${indexUrl} is not a skills index: ${problem}`, {
      details: { url: indexUrl },
    });
  let index: unknown;
  try {
    index = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    throw invalid("it is not JSON");
  }
  const entries = isRecord(index) ? index.skills : undefined;
  if (!Array.isArray(entries)) throw invalid("it has no skills list");
  const names = new Set<string>();
  const skills: SiteSkill[] = [];
  for (const [at, entry] of entries.entries()) {
    if (!isRecord(entry)) throw invalid(`entry ${at} is not an object`);
    const { name } = entry;
    if (typeof name !== "string" || name.length > MAX_NAME || !SKILL_NAME.test(name))
      throw invalid(`entry ${at} has no skill name of lower-case letters, digits and hyphens`);
    if (names.has(name)) throw invalid(`${name} is listed twice`);
    names.add(name);
    const skill = siteSkill(entry, name, indexUrl, (problem) => invalid(`${name} ${problem}`));
    if (skill !== undefined) skills.push(skill);
  }
  return skills;
}

// --- internal ---

function siteSkill(
  entry: Record<string, unknown>,
  name: string,
  indexUrl: string,
  invalid: (problem: string) => SkillshelfError,
): SiteSkill | undefined {
  if (Array.isArray(entry.files)) return { name, type: "files", files: siteFiles(entry.files) };
  const { type, url, digest, signature } = entry;
  if (type !== "skill-md" && type !== "archive") return undefined;
  if (typeof url !== "string" || !URL.canParse(url, indexUrl)) throw invalid("has no URL");
  const pin = typeof digest === "string" ? DIGEST.exec(digest)?.[1] : undefined;
  if (pin === undefined) throw invalid("has no digest of the form sha256:<64 lower-case hex>");
  if (
    signature !== undefined &&
    (typeof signature !== "string" || !URL.canParse(signature, indexUrl))
  )
    throw invalid("has a signature that is not a URL");
  return {
    name,
    type,
    url: new URL(url, indexUrl).href,
    sha256: pin,
    ...(signature === undefined ? {} : { signature: new URL(signature, indexUrl).href }),
  };

  function siteFiles(files: readonly unknown[]): SiteFile[] {
    // an older index serves a skill's files below /.well-known/skills/<name>/
    const folder = new URL(`${name}/`, indexUrl);
    return files.map((file) => {
      const path = typeof file === "string" ? normalizeRelativePath(file) : undefined;
      if (path === undefined || path === ".")
        throw invalid(`lists a file ${JSON.stringify(file)} that is not a path inside the skill`);
      return { path, url: new URL(path, folder).href };
    });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
