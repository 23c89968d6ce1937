import { canonicalJson, sha256 } from "@skillshelf/core";
import type { PromptTemplate } from "@skillshelf/prompts-loader";
import type { Skill } from "@skillshelf/skills-loader";
import { type DigestCache, skillFiles } from "./_files.js";
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

/** The listing of `skills` (already filtered to the served ones) and `prompts`, digests from `digests`. */
export function buildListing(
  skills: readonly Skill[],
  prompts: readonly PromptTemplate[],
  digests: DigestCache,
  generation: number,
): Listing {
  const served: ServedSkill[] = [];
  for (const skill of skills) {
    const files = new Map<string, string>();
    const resources: { uri: string; digest: string }[] = [];
    for (const file of skillFiles(skill)) {
      const digest = digests.digest(file.real);
      if (digest === undefined) continue;
      files.set(file.relative, file.real);
      resources.push({ uri: skillUri(skill.name, file.relative), digest });
    }
    // a skill whose own file vanished since it was loaded is not served this time
    if (!files.has("SKILL.md")) continue;
    const entry = {
      uri: skillUri(skill.name, "SKILL.md"),
      frontmatter: skill.frontmatter,
      resources,
    };
    served.push({ skill, entry, files });
  }
  served.sort((a, b) => (a.entry.uri < b.entry.uri ? -1 : a.entry.uri > b.entry.uri ? 1 : 0));
  const fingerprint = sha256(
    canonicalJson({
      skills: served.map((one) => one.entry),
      prompts: prompts.map((one) => [one.name, one.hash, one.description]),
    }),
  );
  return {
    generation,
    skills: served,
    byName: new Map(served.map((one) => [one.skill.name, one])),
    prompts,
    fingerprint,
  };
}
