// Which skills, templates and recipes of a collection a pick names, and why a pick cannot be made.
import { closest, identityKey, normalizeRelativePath } from "@skillshelf/core";
import {
  COLLECTION_LAYOUTS,
  type Collection,
  type CollectionResource,
  type CollectionSkill,
} from "@skillshelf/sources";
import { refusal } from "./_refusal.js";
import type { Refusal } from "./types.js";

/** What a pick chose from a collection, and what it chose that cannot be installed. */
interface Chosen {
  readonly skills: readonly CollectionSkill[];
  readonly resources: readonly CollectionResource[];
  /** Skills refused alone: a name several skills have, a link out, a file that is no skill. */
  readonly refused: readonly { readonly ref: string; readonly refusal: Refusal }[];
}

/**
 * The skills, prompt templates and agent recipes of `collection` that `pick` names (a name,
 * `kind:name` or a skill's path in the collection; `*`: all), or why they cannot be chosen: none
 * offered (`collection_empty`, the layouts tried and the findings named), several and none picked
 * (`collection_choice_required`), a name not offered (`collection_skill_unknown`, with a
 * did-you-mean). A name several skills have is refused with every path (`collection_duplicate`):
 * a path picks one.
 */
export function chooseSkills(
  collection: Collection,
  pick: readonly string[] | undefined,
  from: string,
): Chosen | { refusal: Refusal } {
  const { skills, resources, clashes } = collection;
  const listed = {
    skills: [
      ...skills.map(({ name, description, path }) => ({ kind: "skill", name, description, path })),
      ...resources.map(({ kind, name, description, path }) => ({ kind, name, description, path })),
    ],
    diagnostics: collection.diagnostics,
  };
  const count = skills.length + resources.length;
  if (count === 0)
    return {
      refusal: refusal(
        "collection_empty",
        `${from} has no manifest, and no skills, prompt templates or agents in any layout Skillshelf reads`,
        { ...listed, layouts: COLLECTION_LAYOUTS },
      ),
    };
  const clash = (name: string) => ({
    ref: `skill:${name}`,
    refusal: refusal(
      "collection_duplicate",
      `${from} has ${clashes.get(name)?.length} skills named ${name}: ${clashes.get(name)?.join(", ")}`,
      { name, paths: clashes.get(name) },
    ),
  });
  const leftOut = collection.refused.map((item) => ({
    ref: item.path,
    refusal: refusal(item.code, `${from}: ${item.message}`, { path: item.path }),
  }));
  // what was never a skill is skipped by a pick of every skill, not refused
  const skippedOut = leftOut.map((item) =>
    NEVER_A_SKILL.has(item.refusal.code)
      ? { ...item, refusal: { ...item.refusal, skipped: true as const } }
      : item,
  );
  if (pick === undefined || pick.length === 0) {
    if (count === 1) return { skills, resources, refused: [] };
    return {
      refusal: refusal(
        "collection_choice_required",
        `${from} offers ${count}: ${listed.skills.map((item) => item.name).join(", ")}`,
        listed,
      ),
    };
  }
  // `*` is every skill; `prompt:*` and `agent:*` every template or recipe: other kinds only when asked
  const every = new Set(
    pick.flatMap((text) => (text === "*" ? ["skill"] : (/^([a-z]+):\*$/.exec(text)?.[1] ?? []))),
  );
  const named = pick.filter((text) => text !== "*" && !/^[a-z]+:\*$/.test(text));
  // a template answers to its own name too: `git:commit` for the package `git-commit`
  const ownName = (item: { within?: string }) =>
    item.within === undefined ? [] : [item.within.replace(/\.md$/i, "").split("/").join(":")];
  const names = (item: { kind: string; name: string; within?: string }) => [
    item.name,
    identityKey(item.kind, item.name),
    ...ownName(item),
  ];
  const asPath = (text: string) => normalizeRelativePath(text.replace(/\/+$/, "")) ?? text;
  const byPath = (text: string) => skills.find((skill) => skill.path === asPath(text));
  const outside = (text: string) => leftOut.find((item) => item.ref === asPath(text));
  const known = [
    ...skills.map((skill) => ({ kind: "skill", name: skill.name })),
    ...resources,
  ].flatMap(names);
  const unknown = named.filter(
    (text) => !known.includes(text) && byPath(text) === undefined && outside(text) === undefined,
  );
  if (unknown.length > 0)
    return {
      refusal: refusal(
        "collection_skill_unknown",
        `${from} offers no skill named ${unknown.join(", ")}`,
        {
          ...listed,
          unknown: unknown.map((name) => ({ name, suggestion: closest(name, known) ?? null })),
        },
      ),
    };
  const picked = (item: { kind: string; name: string; within?: string }) =>
    every.has(item.kind) || names(item).some((name) => named.includes(name));
  const chosenSkills = new Map<string, CollectionSkill>();
  const refused: { ref: string; refusal: Refusal }[] = [];
  for (const skill of skills) {
    const byName = picked({ kind: "skill", name: skill.name });
    const pathed = named.some((text) => byPath(text) === skill);
    if (!byName && !pathed) continue;
    if (pathed || !clashes.has(skill.name)) {
      if (!chosenSkills.has(skill.name)) chosenSkills.set(skill.name, skill);
    } else if (!refused.some((item) => item.ref === `skill:${skill.name}`))
      refused.push(clash(skill.name));
  }
  const chosenResources = resources.filter(picked);
  // a name picked by one path is not refused as a clash
  const refusedAll = [
    ...refused.filter((item) => !chosenSkills.has(item.ref.slice("skill:".length))),
    ...(every.has("skill") ? skippedOut : named.flatMap((text) => outside(text) ?? [])),
  ];
  if (chosenSkills.size + chosenResources.length + refusedAll.length === 0)
    return {
      refusal: refusal(
        "collection_choice_required",
        `${from} offers no ${[...every].join(" or ")}: it offers ${listed.skills.map((item) => identityKey(item.kind, item.name)).join(", ")}`,
        listed,
      ),
    };
  return { skills: [...chosenSkills.values()], resources: chosenResources, refused: refusedAll };
}

// --- internal ---

/** Codes of a `SKILL.md` that never made a skill: a link to nothing, a file with no frontmatter. */
const NEVER_A_SKILL: ReadonlySet<string> = new Set([
  "collection_link_dangling",
  "collection_not_a_skill",
]);
