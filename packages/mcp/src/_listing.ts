import { createHash } from "node:crypto";
import type { PromptTemplate } from "@skillshelf/prompts-loader";
import type { Skill } from "@skillshelf/skills-loader";
import { type FileCache, skillFiles } from "./_files.js";
import { skillUri } from "./_uri.js";

/** One skill as `skills/list` and `skills/get` give it (SEP-2640). */
export interface SkillEntry {
  readonly uri: string;
  /** The skill file's frontmatter as written. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file of the skill, `SKILL.md` first, each with its `sha256:` digest. */
  readonly resources: readonly { readonly uri: string; readonly digest: string }[];
}

/** A served skill: its entry and where each of its files is, by its path inside the skill. */
export interface ServedSkill {
  readonly skill: Skill;
  readonly entry: SkillEntry;
  readonly files: ReadonlyMap<string, string>;
  /** Its name, and each file's path inside it, real path and digest: equal keys, equal entries. */
  readonly key: string;
}

/** What the server serves at one moment: one generation of the library. */
export interface Listing {
  readonly generation: number;
  /** Sorted by URI: the order pages are cut in. */
  readonly skills: readonly ServedSkill[];
  readonly byName: ReadonlyMap<string, ServedSkill>;
  /** The trusted, usable templates that send text to a model, by name. */
  readonly prompts: readonly PromptTemplate[];
  /** Digest of everything served: two listings with one fingerprint serve the same bytes. */
  readonly fingerprint: string;
}

/**
 * The listing of `skills` (already filtered to the served ones) and `prompts`, digests from
 * `cache`. A skill whose files, places and digests are those of `previous` keeps its entry.
 */
export function buildListing(
  skills: readonly Skill[],
  prompts: readonly PromptTemplate[],
  cache: FileCache,
  generation: number,
  previous?: Listing,
): Listing {
  const served: ServedSkill[] = [];
  const hash = createHash("sha256");
  for (const skill of skills) {
    const found: { readonly relative: string; readonly real: string; readonly digest: string }[] =
      [];
    for (const file of skillFiles(skill, cache)) {
      // the loader hashed the skill file's bytes as it read them: not read a second time
      const digest =
        file.relative === "SKILL.md" ? `sha256:${skill.hash}` : cache.digest(file.real);
      if (digest !== undefined) found.push({ ...file, digest });
    }
    // the frontmatter is SKILL.md's, so its digest stands for it
    const key = [
      skill.name,
      ...found.map((file) => `${file.relative}\0${file.real}\0${file.digest}`),
    ].join("\0");
    hash.update(`${key}\0\0`);
    const kept = previous?.byName.get(skill.name);
    if (kept?.key === key) {
      served.push(kept);
      continue;
    }
    const entry = {
      uri: skillUri(skill.name, "SKILL.md"),
      frontmatter: skill.frontmatter,
      resources: found.map((file) => ({
        uri: skillUri(skill.name, file.relative),
        digest: file.digest,
      })),
    };
    served.push({
      skill,
      entry,
      files: new Map(found.map((file) => [file.relative, file.real])),
      key,
    });
  }
  served.sort((a, b) => (a.entry.uri < b.entry.uri ? -1 : a.entry.uri > b.entry.uri ? 1 : 0));
  for (const one of prompts) hash.update(`${one.name}\0${one.hash}\0${one.description}\0`);
  const fingerprint = hash.digest("hex");
  return {
    generation,
    skills: served,
    byName: new Map(served.map((one) => [one.skill.name, one])),
    prompts,
    fingerprint,
  };
}
