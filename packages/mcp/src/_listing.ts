import { createHash } from "node:crypto";
import { compareText, sameStamp } from "@skillshelf/core";
import type { PromptTemplate } from "@skillshelf/prompts-loader";
import type { Skill } from "@skillshelf/skills-loader";
import { overSkillLimits } from "@skillshelf/sources/mcp-protocol";
import { type FileCache, type FileContent, type SkillFile, skillFiles } from "./_files.js";
import { NOTHING_RELAYED, type Relayed, type RelayedSkill } from "./_relay.js";
import { skillUri } from "./_uri.js";
import type { FolderWatch } from "./_watch.js";

/** One skill as `skills/list` and `skills/get` give it (SEP-2640). */
export interface SkillEntry {
  readonly uri: string;
  /** The skill file's frontmatter as written. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file of the skill, `SKILL.md` first, each with its `sha256:` digest and length in bytes. */
  readonly resources: readonly {
    readonly uri: string;
    readonly digest: string;
    readonly size: number;
  }[];
}

/** A skill not served because it is over SEP-2640's limits: its file count and bytes (so far). */
interface DeclinedSkill {
  readonly files: number;
  readonly bytes: number;
}

/** A served skill of the library: its entry and where each of its files is, by its path inside the skill. */
export interface ServedSkill {
  readonly skill: Skill;
  /** How it is addressed: its name. */
  readonly name: string;
  readonly description: string;
  readonly entry: SkillEntry;
  readonly files: ReadonlyMap<string, string>;
  /** Its name, and each file's path inside it, real path and digest: equal keys, equal entries. */
  readonly key: string;
  /** The real folders its files are in: when none was touched, neither was the skill. */
  readonly folders: readonly string[];
}

/** What the server serves at one moment: one generation of the library. */
export interface Listing {
  readonly generation: number;
  /** The library's skills, sorted by URI. */
  readonly skills: readonly ServedSkill[];
  /** What upstream servers relay (a gateway's; nothing otherwise). */
  readonly relayed: Relayed;
  /** The library's skills and the relayed ones, sorted by URI: the order pages are cut in. */
  readonly all: readonly (ServedSkill | RelayedSkill)[];
  readonly byName: ReadonlyMap<string, ServedSkill>;
  /** The skills over SEP-2640's per-skill limits, by name: not served, and `skills/get` says why. */
  readonly declined: ReadonlyMap<string, DeclinedSkill>;
  /** The trusted, usable templates that send text to a model, by name. */
  readonly prompts: readonly PromptTemplate[];
  /** Each template's name, digest and description: equal keys, equal prompts. */
  readonly promptKeys: readonly string[];
  /** Digest of everything served: two listings with one fingerprint serve the same bytes. */
  readonly fingerprint: string;
}

/**
 * The listing of `skills` (already filtered to the served ones) and `prompts`, digests from
 * `cache`. A skill of `previous` with the same skill file, none of whose folders `watch` saw
 * touched, is kept as it was without a look; one whose files, places and digests are those of
 * `previous` keeps its entry. When every skill and template is kept, the listing is `previous`
 * itself.
 */
export function buildListing(
  skills: readonly Skill[],
  prompts: readonly PromptTemplate[],
  files: { readonly cache: FileCache; readonly watch: FolderWatch },
  generation: number,
  previous?: Listing,
): Listing {
  const { cache, watch } = files;
  const served: ServedSkill[] = [];
  const declined = new Map<string, DeclinedSkill>();
  // the skills of `previous` kept as they were: when that is every one of them, and the templates
  // are too, `previous` is this listing
  const untouched = new Set<ServedSkill>();
  for (const skill of skills) {
    const kept = previous?.byName.get(skill.name);
    if (
      kept !== undefined &&
      kept.skill.realPath === skill.realPath &&
      sameStamp(kept.skill.stamp, skill.stamp) &&
      watch.quiet(kept.folders)
    ) {
      served.push(kept);
      untouched.add(kept);
      continue;
    }
    const walked = skillFiles(skill, cache);
    const found: (SkillFile & FileContent)[] = [];
    let bytes = 0;
    for (const file of walked.files) {
      const content = cache.content(file.real);
      if (content === undefined) continue;
      found.push({ ...file, ...content });
      bytes += content.size;
    }
    watch.settle(walked.folders);
    // a skill a conforming host need not load is not served (SEP-2640, Limits)
    if (overSkillLimits(found.length, bytes)) {
      declined.set(skill.name, { files: found.length, bytes });
      continue;
    }
    // the frontmatter is SKILL.md's, so its digest stands for it
    const key = [
      skill.name,
      ...found.map((file) => `${file.relative}\0${file.real}\0${file.digest}`),
    ].join("\0");
    if (kept?.key === key) {
      served.push({ ...kept, folders: walked.folders });
      continue;
    }
    const entry = {
      uri: skillUri(skill.name, "SKILL.md"),
      frontmatter: skill.frontmatter,
      resources: found.map((file) => ({
        uri: skillUri(skill.name, file.relative),
        digest: file.digest,
        size: file.size,
      })),
    };
    served.push({
      skill,
      name: skill.name,
      description: skill.description,
      entry,
      files: new Map(found.map((file) => [file.relative, file.real])),
      key,
      folders: walked.folders,
    });
  }
  const promptKeys = prompts.map((one) => `${one.name}\0${one.hash}\0${one.description}`);
  const samePrompts = promptKeys.join("\0\0") === previous?.promptKeys.join("\0\0");
  if (
    previous !== undefined &&
    samePrompts &&
    declined.size === 0 &&
    previous.declined.size === 0 &&
    served.length === previous.skills.length &&
    untouched.size === served.length
  )
    return previous;
  served.sort((a, b) => compareText(a.entry.uri, b.entry.uri));
  const same =
    previous !== undefined &&
    samePrompts &&
    declined.size === 0 &&
    previous.declined.size === 0 &&
    served.length === previous.skills.length &&
    served.every((one, index) => one.key === previous.skills[index]?.key);
  return {
    generation,
    skills: served,
    relayed: NOTHING_RELAYED,
    all: served,
    byName: new Map(served.map((one) => [one.skill.name, one])),
    declined,
    prompts,
    promptKeys,
    fingerprint: same ? previous.fingerprint : fingerprintOf(served, promptKeys, declined),
  };
}

/**
 * `local` (the library's listing) with what `relayed` serves beside it, as generation
 * `generation`; `previous` itself when it already served exactly these.
 */
export function withRelayed(
  local: Listing,
  relayed: Relayed,
  generation: number,
  previous?: Listing,
): Listing {
  if (relayed === NOTHING_RELAYED) return local;
  const fingerprint = sha256Hex(`${local.fingerprint}\0${relayed.key}`);
  if (previous?.fingerprint === fingerprint) return previous;
  // an upstream's name is its namespace: a skill of the library of that name is not served beside it
  const skills = local.skills.filter((one) => !relayed.byUpstream.has(one.name));
  const all = [...skills, ...relayed.skills].sort((a, b) => compareText(a.entry.uri, b.entry.uri));
  const byName = new Map(skills.map((one) => [one.name, one]));
  return { ...local, generation, skills, byName, relayed, all, fingerprint };
}

// --- internal ---

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** sha256 over every skill's key, every template's and every declined skill's, NUL-separated. */
function fingerprintOf(
  served: readonly ServedSkill[],
  promptKeys: readonly string[],
  declined: ReadonlyMap<string, DeclinedSkill>,
): string {
  const hash = createHash("sha256");
  for (const { key } of served) hash.update(`${key}\0\0`);
  for (const key of promptKeys) hash.update(`${key}\0\0`);
  for (const [name, { files, bytes }] of declined) hash.update(`${name}\0${files}\0${bytes}\0\0`);
  return hash.digest("hex");
}
