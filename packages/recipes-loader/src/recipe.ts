import {
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  parseFrontmatter,
  schemaDiagnostics,
} from "@skillshelf/core";
import * as z from "zod/mini";
import { nameList } from "./_name-list.js";
import { ENGLISH } from "./_zod-english.js";

/** Keys of Claude Code sub-agent files: accepted and kept, not interpreted. */
export const COMPATIBLE_AGENT_KEYS: readonly string[] = [
  "disallowedTools",
  "permissionMode",
  "maxTurns",
  "mcpServers",
  "hooks",
  "memory",
  "background",
  "isolation",
  "color",
  "effort",
];

/** The recipe's schema, built when a recipe is first read. */
function recipeSchemaOf() {
  const text = z.string().check(z.minLength(1));
  const names = z.pipe(z.transform(nameList), z.array(z.string().check(z.minLength(1))));
  return z.strictObject({
    name: z
      .string()
      .check(z.regex(/^[a-z0-9][a-z0-9-]*$/, "must be lowercase letters, digits and hyphens")),
    description: z.string().check(z.trim(), z.minLength(1)),
    tools: z.optional(names),
    model: z.optional(text),
    skills: z.optional(names),
    version: z.optional(z.literal(1, "must be 1, the recipe format this reader supports")),
    category: z.optional(text),
    budget: z.optional(
      z
        .strictObject({
          toolCalls: z.int().check(z.positive()),
          readReserve: z.optional(z.int().check(z.nonnegative())),
          synthesis: z.optional(z.boolean()),
        })
        .check(
          z.refine(
            (budget) => budget.readReserve === undefined || budget.readReserve < budget.toolCalls,
            { message: "readReserve must be smaller than toolCalls", path: ["readReserve"] },
          ),
        ),
    ),
    resultContract: z.optional(z.strictObject({ kind: text, path: z.optional(text) })),
    ...Object.fromEntries(COMPATIBLE_AGENT_KEYS.map((key) => [key, z.optional(z.unknown())])),
  });
}

const recipeSchema = z.lazy(recipeSchemaOf);

/** What an agent recipe's file says. */
export interface AgentRecipeFields {
  /** The runtime name: what fleets and hosts call the agent. */
  readonly name: string;
  readonly description: string;
  /** The tools it may use; absent means the host's default set. */
  readonly tools?: readonly string[];
  readonly model?: string;
  /** Skills bound to it; they must be available where it runs. */
  readonly skills: readonly string[];
  readonly version?: 1;
  readonly category?: string;
  readonly budget?: {
    readonly toolCalls: number;
    readonly readReserve?: number;
    readonly synthesis?: boolean;
  };
  readonly resultContract?: { readonly kind: string; readonly path?: string };
  /** The persona: the markdown body, the agent's instructions. */
  readonly persona: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/**
 * Parse an agent recipe strictly: frontmatter is required; an unknown key (`key_unknown`), a
 * missing `name` or `description` (`key_missing`), a mistyped value (`field_invalid`) or an empty
 * body (`body_empty`) is an error and no recipe comes back. `id` is the file name without `.md`;
 * a name that differs from it is a warning.
 */
export function parseAgentRecipe(
  text: string,
  options: { readonly path: string; readonly id: string },
): { recipe: AgentRecipeFields | undefined; diagnostics: Diagnostic[] } {
  const { path, id } = options;
  const parsed = parseFrontmatter(text, { path });
  if (!parsed.ok) return { recipe: undefined, diagnostics: [parsed.diagnostic] };
  const result = recipeSchema.safeParse(parsed.data, ENGLISH);
  const diagnostics = [...parsed.diagnostics];
  if (!result.success) {
    diagnostics.push(...schemaDiagnostics(result.error.issues, parsed.data, path, "agent recipe"));
  }
  if (parsed.body.trim() === "") {
    diagnostics.push(
      createDiagnostic(
        "error",
        "body_empty",
        "agent recipe has no persona: write its instructions below the frontmatter",
        { path },
      ),
    );
  }
  if (!result.success || hasErrors(diagnostics)) return { recipe: undefined, diagnostics };
  const { name, description, tools, model, skills, version, category, budget, resultContract } =
    result.data;
  if (name !== id) {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "name_mismatch",
        `agent name "${name}" differs from its file name "${id}"; "${name}" is what fleets and hosts call`,
        { path, details: { name, id } },
      ),
    );
  }
  const recipe: AgentRecipeFields = {
    name,
    description: description.trim(),
    skills: skills ?? [],
    persona: parsed.body,
    frontmatter: parsed.data,
    ...(tools === undefined ? {} : { tools }),
    ...(model === undefined ? {} : { model }),
    ...(version === undefined ? {} : { version }),
    ...(category === undefined ? {} : { category }),
    ...(budget === undefined ? {} : { budget: withoutUndefined(budget) }),
    ...(resultContract === undefined ? {} : { resultContract: withoutUndefined(resultContract) }),
  };
  return { recipe, diagnostics };
}

// --- internal ---

function withoutUndefined<T extends object>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
