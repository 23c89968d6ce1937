import { type WithheldReason, withheldReason } from "@skillshelf/mcp/served";
import type { ReadPass } from "@skillshelf/resources";
import {
  isModelVisible,
  type LoadSkillsResult,
  readSkillContent,
  type Skill,
  type SkillContent,
  skillFileHash,
  skillIdentity,
} from "@skillshelf/skills-loader";
import type { KeptContent, KeptContents } from "../_skill-cache.js";
import type { Paint, PathStyle } from "../format.js";
import { safeLine, shortHash } from "../format.js";
import {
  locationLine,
  type SkillIdentity,
  type SkillLocation,
  skillIdentities,
} from "./identity.js";
import {
  type BaseRow,
  type Column,
  type ListedRow,
  type Listing,
  listedRows,
  renderListing,
} from "./rows.js";

/** A `list --json` skill row: `{name, description, path, scope, source, trusted, unavailable, modelVisible, mcp, hash, shadows}`. */
interface SkillRow extends BaseRow {
  readonly description: string;
  /** Why it cannot be used (a package reference that names nothing), or `null`. */
  readonly unavailable: string | null;
  readonly modelVisible: boolean;
  /** `served` when an MCP client of `skillshelf mcp` gets it, else why not. */
  readonly mcp: WithheldReason | "served";
  /** The sha256 of the skill file, or `null` when it changed since it was listed. */
  readonly hash: string | null;
}

const COLUMNS: readonly Column<SkillRow>[] = [
  { title: "SOURCE", cell: (row) => row.source },
  { title: "SCOPE", cell: (row) => row.scope },
  {
    title: "MODEL",
    cell: modelStatus,
    status: true,
  },
  { title: "MCP", cell: (row) => (row.mcp === "served" ? "served" : "-") },
];

/** What a model has of a skill, as the MODEL column and the summary say it. */
function modelStatus(
  row: SkillRow,
): "visible" | "unavailable" | "operator-only" | "discovery-only" {
  if (row.modelVisible) return "visible";
  if (row.unavailable !== null) return "unavailable";
  return row.trusted ? "operator-only" : "discovery-only";
}

/** With `--all`, a skill row is one identity of a name, with every place it was found. */
interface IdentityRow extends SkillRow {
  readonly identity: string;
  readonly locations: readonly SkillLocation[];
  readonly drift?: readonly string[] | undefined;
}

const IDENTITY_COLUMNS: readonly Column<IdentityRow>[] = [
  ...(COLUMNS as readonly Column<IdentityRow>[]),
  {
    title: "COPIES",
    cell: (row) => `${row.locations.length}${row.drift === undefined ? "" : " drift"}`,
  },
];

/** The loader's findings to print: its summary of discovery-only skills is for hosts; the MODEL column says it of each. */
function shownDiagnostics(result: LoadSkillsResult): LoadSkillsResult["diagnostics"] {
  return result.diagnostics.filter((diagnostic) => diagnostic.code !== "untrusted_hidden");
}

function skillRow(skill: Skill, fileHash: (skill: Skill) => string | null = hashOrNull): SkillRow {
  return {
    name: skill.name,
    description: skill.description,
    path: skill.path,
    scope: skill.scope,
    source: skill.source,
    trusted: skill.trusted,
    unavailable: skill.unavailable ?? null,
    modelVisible: isModelVisible(skill),
    mcp: withheldReason(skill) ?? "served",
    // the loader reads frontmatter alone: the whole file is read only for `--json`, which prints this
    get hash() {
      return fileHash(skill);
    },
  };
}

/** A skill file's identity and hash from one read, learnt by `kept`; null when it cannot be read. */
function readFacts(skill: Skill, kept: KeptContents | undefined): KeptContent | null {
  let content: SkillContent;
  try {
    content = readSkillContent(skill);
  } catch {
    return null;
  }
  const facts = { identity: skillIdentity({ ...skill, body: content.body }), hash: content.hash };
  kept?.set(skill, facts);
  return facts;
}

function hashOrNull(skill: Skill): string | null {
  try {
    return skillFileHash(skill);
  } catch {
    return null;
  }
}

/**
 * The effective skills: the copy in use for each name, and whether a model can see it. With
 * `all`, one row per identity of each name: every copy with the same content is
 * a location of one row, and a name whose copies differ has a row per identity, flagged `drift`.
 */
export function skillListing(
  pass: ReadPass,
  all: boolean,
  _style?: PathStyle,
  kept?: KeptContents,
): Listing {
  const result = pass.load("skill");
  if (all) return identityListing(pass, result, kept);
  // a file whose stamp an earlier run kept is not read again for its hash
  const fileHash =
    kept === undefined
      ? hashOrNull
      : (skill: Skill) => (kept.get(skill) ?? readFacts(skill, kept))?.hash ?? null;
  const rows = listedRows(result.items, result.collisions, false, (skill) =>
    skillRow(skill, fileHash),
  );
  return {
    key: "skills",
    rows,
    diagnostics: shownDiagnostics(result),
    text: (style, paint) =>
      renderListing({
        rows,
        noun: "skill",
        nouns: "skills",
        columns: COLUMNS,
        style,
        paint,
        summary: (effective) => {
          const count = (status: ReturnType<typeof modelStatus>) =>
            effective.filter((row) => modelStatus(row) === status).length;
          const unavailable = count("unavailable");
          const served = effective.filter((row) => row.mcp === "served").length;
          return `${count("visible")} visible to the model, ${count("discovery-only")} discovery-only, ${count("operator-only")} operator-only${unavailable === 0 ? "" : `, ${unavailable} unavailable`}; ${served} served over MCP (skillshelf mcp)`;
        },
      }),
  };
}

function identityListing(
  pass: ReadPass,
  result: LoadSkillsResult,
  kept: KeptContents | undefined,
): Listing {
  // each file read at most once for its identity and its hash, none whose stamp an earlier run kept
  const facts = new Map<Skill, KeptContent | null>();
  const factsOf = (skill: Skill) => {
    if (!facts.has(skill)) facts.set(skill, kept?.get(skill) ?? readFacts(skill, kept));
    return facts.get(skill) ?? undefined;
  };
  const groups = skillIdentities(
    pass.environment,
    result,
    undefined,
    (skill) => factsOf(skill)?.identity,
  );
  const byName = new Map<string, SkillIdentity[]>();
  for (const group of groups) {
    const named = byName.get(group.name);
    if (named === undefined) byName.set(group.name, [group]);
    else named.push(group);
  }
  const rows = groups.map((group): ListedRow<IdentityRow> => {
    const row = {
      ...skillRow(group.skill, (skill) => factsOf(skill)?.hash ?? null),
      identity: group.identity,
      locations: group.locations,
    };
    const named = byName.get(group.name) ?? [];
    if (named.length === 1) return { ...row, shadows: [] };
    const winner = named.find((candidate) => candidate.winner);
    return {
      ...row,
      ...(group.drift === undefined ? {} : { drift: group.drift }),
      shadows: group.winner
        ? named.filter((other) => other !== group).map((other) => other.skill.path)
        : [],
      ...(group.winner || winner === undefined ? {} : { shadowedBy: winner.skill.path }),
    };
  });
  return {
    key: "skills",
    rows,
    diagnostics: shownDiagnostics(result),
    text: (style, paint) => {
      const table = renderListing({
        rows,
        noun: "skill",
        nouns: "skills",
        columns: IDENTITY_COLUMNS,
        style,
        paint,
        summary: (effective) => {
          const drifted = new Set(
            rows.filter((row) => row.drift !== undefined).map((row) => row.name),
          );
          const copies = rows.reduce((sum, row) => sum + row.locations.length, 0);
          return `${copies} copies in all${drifted.size === 0 ? "" : `, ${drifted.size} drifted apart`} (${effective.length} in use)`;
        },
      });
      return `${table}${locationText(rows, style, paint)}`;
    },
  };
}

/** Where each skill with several copies (or drifted copies) was found, one line per place. */
function locationText(rows: readonly IdentityRow[], style: PathStyle, paint: Paint): string {
  const lines: string[] = [];
  for (const row of rows) {
    if (row.locations.length < 2 && row.drift === undefined) continue;
    const mark = row.drift === undefined ? "" : ` ${paint("yellow", "drift")}`;
    lines.push(`${safeLine(row.name)} ${shortHash(row.identity)}${mark}:`);
    for (const place of row.locations) lines.push(`  ${locationLine(place, style)}`);
  }
  return lines.length === 0 ? "" : `\nLocations:\n${lines.join("\n")}\n`;
}
