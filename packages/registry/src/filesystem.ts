import {
  createSkillCache,
  isModelVisible,
  type LoadSkillsInput,
  loadSkills,
  readSkillBody,
  type Skill,
  type SkillCache,
} from "@skillshelf/skills-loader";
import { SKILL_NAME } from "./_validate.js";
import type { ProviderControl, SkillCandidate, SkillDefinition, SkillProvider } from "./types.js";

/** Ranks of the filesystem provider's skills by scope (lower wins): explicit, project, user, package. */
export const FILESYSTEM_RANKS: {
  readonly cli: 100;
  readonly project: 200;
  readonly user: 300;
  readonly package: 600;
} = {
  cli: 100,
  project: 200,
  user: 300,
  package: 600,
};

/** Options of `createFilesystemProvider`. */
export interface FilesystemProviderOptions {
  /** The provider's name. Default `filesystem`. */
  readonly name?: string | undefined;
  /** Passed to `loadSkills` on every list (roots, home, trust, tools, …); `cwd` comes from the read. */
  readonly load?: Omit<LoadSkillsInput, "cwd" | "cache"> | undefined;
  /** The stat-keyed cache; by default one of its own, so repeated lists read only changed files. */
  readonly cache?: SkillCache | undefined;
}

/**
 * A provider serving the skills `loadSkills` finds for the read's `cwd`: trusted skills only
 * (discovery-only copies never reach a registry), ranked by scope, with a kebab-case name (others
 * are left out; `skillshelf validate` reports them), with the loader's diagnostics (a file that does
 * not load, a name clash) in the read's. Bodies are read on `get` and a file that
 * changed since the list makes the registry drop its catalog.
 * @example registry.registerProvider(createFilesystemProvider({ load: { home: "/home/ada" } }));
 */
export function createFilesystemProvider(
  options: FilesystemProviderOptions = {},
): (control: ProviderControl) => SkillProvider {
  return (control) => {
    const name = options.name ?? "filesystem";
    const cache = options.cache ?? createSkillCache();
    return {
      name,
      list({ cwd }) {
        const { items, diagnostics } = loadSkills({ ...options.load, cwd, cache });
        const candidates = items
          .filter((skill) => skill.trusted && SKILL_NAME.test(skill.name))
          .map((skill) => candidateOf(skill, name));
        return { candidates, complete: true, diagnostics };
      },
      get(candidate) {
        const skill = candidate.locator as Skill;
        try {
          return {
            ...definitionOf(candidate),
            content: readSkillBody(skill),
          } satisfies SkillDefinition;
        } catch {
          control.invalidate();
          return undefined;
        }
      },
    };
  };
}

// --- internal ---

function candidateOf(skill: Skill, provider: string): SkillCandidate {
  return {
    name: skill.name,
    path: skill.path,
    description: skill.description,
    invocation: { modelInvocable: isModelVisible(skill), userInvocable: skill.userInvocable },
    source: skill.source,
    provider,
    resourceBase: { kind: "directory", path: skill.baseDir },
    rank: FILESYSTEM_RANKS[skill.scope],
    locator: skill,
  };
}

function definitionOf(candidate: SkillCandidate): Omit<SkillDefinition, "content"> {
  const { rank: _rank, locator: _locator, metadata: _metadata, ...summary } = candidate;
  return summary;
}
