import { join } from "node:path";
import type { Environment, ResourceKind, ResourceRoot } from "@skillshelf/core";
import {
  defaultPromptRoots,
  type LoadPromptTemplatesResult,
  loadPromptTemplates,
} from "@skillshelf/prompts-loader";
import {
  type AgentRecipe,
  defaultFleetRoots,
  defaultRecipeRoots,
  type FleetContract,
  type LoadRecipesResult,
  loadAgentRecipes,
  loadFleetContracts,
} from "@skillshelf/recipes-loader";
import {
  defaultSkillRoots,
  type LoadSkillsResult,
  loadSkills,
  type SkillCache,
} from "@skillshelf/skills-loader";

/** What each kind's loader returns. */
interface LoaderResults {
  readonly skill: LoadSkillsResult;
  readonly prompt: LoadPromptTemplatesResult;
  readonly agent: LoadRecipesResult<AgentRecipe>;
  readonly fleet: LoadRecipesResult<FleetContract>;
}

/**
 * What a pass loads of each kind. A kind not in `LoaderResults` loads `never`, so the one place a
 * new kind fails to compile is its missing entry in `KINDS` (whose loader must then be listed
 * above); everything else keyed by kind derives from these two.
 */
export type KindLoads = {
  readonly [K in ResourceKind]: K extends keyof LoaderResults ? LoaderResults[K] : never;
};

/** One loaded resource of kind `K`. */
export type KindItem<K extends ResourceKind> = KindLoads[K]["items"][number];

/** What a pass hands a kind's loader. */
export interface KindLoadInput extends Environment {
  readonly roots: readonly ResourceRoot[];
  readonly trustImports: boolean;
  /** Skills read before (a `resources` object's cache). */
  readonly cache?: SkillCache | undefined;
  /** The host's tool names, against which `allowed-tools` is resolved. */
  readonly toolNames?: readonly string[] | undefined;
  /** Keep every body, not only package-owned ones. */
  readonly bodies: boolean;
  /** Copies Skillshelf made of a skill folder, by copy: one skill seen twice. */
  readonly copiesOf?: (() => ReadonlyMap<string, string>) | undefined;
  /** The skills where the agents run, when the pass reads everything there (a bound skill outside them is a warning). */
  readonly knownSkills?: (() => readonly string[]) | undefined;
}

/** Everything the read pass, admission, validation and the CLI know about one kind. */
export interface KindSpec<K extends ResourceKind> {
  /** What one and several are called: "prompt template", "prompt templates". */
  readonly nouns: { readonly one: string; readonly many: string };
  /** Both libraries and each agent's folders for this kind (the agent table's column), in order. */
  readonly defaultRoots: (environment: Environment) => ResourceRoot[];
  readonly load: (input: KindLoadInput) => KindLoads[K];
  /** The text `${pluginRoot}` and `${component:…}` are expanded in, and the item holding new text; none when the kind has no body. */
  readonly body?:
    | {
        readonly of: (item: KindItem<K>) => string | undefined;
        readonly with: (item: KindItem<K>, text: string) => KindItem<K>;
      }
    | undefined;
  /** Why a trusted item the loader kept still cannot be used (beyond its own `unavailable`). */
  readonly unusable?: ((item: KindItem<K>) => string | undefined) | undefined;
  /** Usable by the operator only, never offered to a model. */
  readonly operatorOnly?: ((item: KindItem<K>) => boolean) | undefined;
  /** The tools an item is granted, compared when a package changes. */
  readonly tools?: ((item: KindItem<K>) => readonly string[]) | undefined;
  /** What the operator types to use one (`/skill <name>`, `/<name>`); none when it is not typed. */
  readonly invocation?: ((name: string) => string) | undefined;
  /** Whether the loader reads below the top of the kind's folder (agents and fleets are flat). */
  readonly nests: boolean;
  /** A file of the kind that passes `validate --strict`, and where in a library it goes. */
  readonly scaffold: (name: string) => { readonly path: string; readonly text: string };
}

/** The description `new` gives a skill: a placeholder for its author to replace. */
export function skillPlaceholder(name: string): string {
  return `What ${name} does, and when to use it. Say both, in one or two sentences.`;
}

/** Every kind, by kind. */
export const KINDS: { readonly [K in ResourceKind]: KindSpec<K> } = {
  skill: {
    nouns: { one: "skill", many: "skills" },
    defaultRoots: defaultSkillRoots,
    load: (input) =>
      loadSkills({
        ...input,
        copiesOf: input.copiesOf?.(),
        // package-owned bodies are read now so their references are checked before listing
        includeBody: input.bodies || ((root) => root.scope === "package"),
      }),
    body: { of: (skill) => skill.body, with: (skill, body) => ({ ...skill, body }) },
    unusable: (skill) =>
      skill.addressable ? undefined : "its name cannot be typed as /skill <name>",
    operatorOnly: (skill) => skill.disableModelInvocation,
    tools: (skill) => skill.allowedTools ?? [],
    invocation: (name) => `/skill ${name}`,
    nests: true,
    scaffold: (name) => ({
      path: join("skills", name, "SKILL.md"),
      text: `---\nname: ${name}\ndescription: ${skillPlaceholder(name)}\n---\n# ${name}\n\n## When to use\n\nDescribe the situations this skill is for.\n\n## Steps\n\n1. The first thing to do.\n2. The next.\n`,
    }),
  },
  prompt: {
    nouns: { one: "prompt template", many: "prompt templates" },
    defaultRoots: defaultPromptRoots,
    load: loadPromptTemplates,
    body: {
      of: (template) => template.content,
      with: (template, content) => ({ ...template, content }),
    },
    invocation: (name) => `/${name}`,
    nests: true,
    scaffold: (name) => ({
      path: join("prompts", `${name}.md`),
      text: `---\ndescription: What /${name} asks for\nargument-hint: <what>\n---\nDo this for $1, and say what you changed.\n`,
    }),
  },
  agent: {
    nouns: { one: "agent recipe", many: "agent recipes" },
    defaultRoots: defaultRecipeRoots,
    load: (input) => loadAgentRecipes({ ...input, skillNames: input.knownSkills?.() }),
    body: { of: (recipe) => recipe.persona, with: (recipe, persona) => ({ ...recipe, persona }) },
    tools: (recipe) => recipe.tools ?? [],
    nests: false,
    scaffold: (name) => ({
      path: join("agents", `${name}.md`),
      text: `---\nname: ${name}\ndescription: What the ${name} agent is for.\ntools: Read, Grep\n---\nYou are the ${name} agent. Describe how it works and what it returns.\n`,
    }),
  },
  fleet: {
    nouns: { one: "fleet contract", many: "fleet contracts" },
    defaultRoots: defaultFleetRoots,
    load: loadFleetContracts,
    nests: false,
    scaffold: (name) => ({
      path: join("fleets", `${name}.md`),
      text: `---\nversion: 1\nname: ${name}\ndescription: What the ${name} fleet does.\nsteps:\n  - id: plan\n    agent: planner\n---\nDescribe the work for the fleet.\n`,
    }),
  },
};
