import {
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  parseFrontmatter,
  schemaDiagnostics,
} from "@skillshelf/core";
import * as z from "zod/mini";
import { ENGLISH } from "./_zod-english.js";

/** Fleet contract versions this reader understands; a newer contract is refused, not guessed at. */
export const SUPPORTED_FLEET_VERSIONS: readonly number[] = [1];

/** The schemas of a fleet contract, built when one is first read. */
function fleetSchemas() {
  const id = z
    .string()
    .check(z.regex(/^[A-Za-z0-9][\w.-]*$/, "must be letters, digits, '.', '_' or '-'"));
  const commandId = z
    .string()
    .check(z.regex(/^[\w:.-]+$/, "must be the id of a command the host defines, not a shell line"));
  const text = z.string().check(z.minLength(1));
  const relativePath = text.check(
    z.refine(
      (path) => !path.startsWith("/") && !path.split(/[\\/]/).includes(".."),
      "must be a path inside the workspace",
    ),
  );

  const common = {
    id,
    dependencies: z.optional(z.array(id)),
    scope: z.optional(z.enum(["readonly", "workspace"])),
    writes: z.optional(z.array(relativePath)),
  };

  const stepSchema = z.discriminatedUnion("kind", [
    z.strictObject({ ...common, kind: z.literal("agent"), agent: text }),
    z.strictObject({ ...common, kind: z.literal("command"), command: commandId }),
    z.strictObject({
      ...common,
      kind: z.literal("loop"),
      maxAttempts: z.int().check(z.minimum(1), z.maximum(5)),
      check: z.union([z.strictObject({ command: commandId }), z.strictObject({ agent: text })]),
      repair: z.strictObject({ agent: text }),
    }),
  ]);

  const fleet = z.strictObject({
    version: z.int(),
    name: z.string().check(z.trim(), z.minLength(1)),
    description: z.optional(z.string()),
    steps: z.array(z.pipe(z.transform(defaultKind), stepSchema)).check(z.minLength(1)),
    maxWorkers: z.optional(z.int().check(z.minimum(1))),
    onFailure: z.optional(z.enum(["stop", "continue"])),
  });
  return { step: stepSchema, fleet };
}

const fleetSchema = z.lazy(() => fleetSchemas().fleet);

type StepInput = z.infer<ReturnType<typeof fleetSchemas>["step"]>;

/** One step of a fleet. */
export type FleetStep = {
  readonly id: string;
  readonly dependencies: readonly string[];
  readonly scope: "readonly" | "workspace";
  readonly writes: readonly string[];
} & (
  | { readonly kind: "agent"; readonly agent: string }
  | { readonly kind: "command"; readonly command: string }
  | {
      readonly kind: "loop";
      readonly maxAttempts: number;
      readonly check: { readonly command: string } | { readonly agent: string };
      readonly repair: { readonly agent: string };
    }
);

/** What a fleet contract's file says. */
export interface FleetContractFields {
  readonly version: number;
  readonly name: string;
  readonly description?: string;
  readonly steps: readonly FleetStep[];
  readonly maxWorkers: number;
  readonly onFailure: "stop" | "continue";
  /** The body: a template the host fills in before running the fleet. */
  readonly template: string;
  /** The `{{var}}` placeholders of the template, in order of first use. */
  readonly variables: readonly string[];
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/**
 * Parse a fleet contract strictly: unknown and missing keys, an unsupported `version`, duplicate
 * step ids, dependencies on unknown steps, a dependency cycle (named step by step), or an empty
 * body are errors, and no contract comes back. Skillshelf never runs a fleet; hosts do.
 */
export function parseFleetContract(
  text: string,
  options: { readonly path: string },
): { fleet: FleetContractFields | undefined; diagnostics: Diagnostic[] } {
  const { path } = options;
  const parsed = parseFrontmatter(text, { path });
  if (!parsed.ok) return { fleet: undefined, diagnostics: [parsed.diagnostic] };
  const diagnostics = [...parsed.diagnostics];
  const result = fleetSchema.safeParse(parsed.data, ENGLISH);
  if (!result.success)
    diagnostics.push(
      ...schemaDiagnostics(result.error.issues, parsed.data, path, "fleet contract"),
    );
  if (parsed.body.trim() === "") {
    diagnostics.push(
      createDiagnostic(
        "error",
        "body_empty",
        "fleet contract has no template: write it below the frontmatter",
        { path },
      ),
    );
  }
  if (!result.success) return { fleet: undefined, diagnostics };
  const { version, name, description, maxWorkers, onFailure } = result.data;
  if (!SUPPORTED_FLEET_VERSIONS.includes(version)) {
    diagnostics.push(
      createDiagnostic(
        "error",
        "version_unsupported",
        `fleet contract version ${version} is not supported (this reader knows ${SUPPORTED_FLEET_VERSIONS.join(", ")})`,
        { path, details: { version } },
      ),
    );
  }
  const steps = result.data.steps.map(normalizeStep);
  diagnostics.push(...graphDiagnostics(steps, path));
  if (hasErrors(diagnostics)) return { fleet: undefined, diagnostics };
  return {
    fleet: {
      version,
      name: name.trim(),
      ...(description === undefined ? {} : { description }),
      steps,
      maxWorkers: maxWorkers ?? 1,
      onFailure: onFailure ?? "stop",
      template: parsed.body,
      variables: templateVariables(parsed.body),
      frontmatter: parsed.data,
    },
    diagnostics,
  };
}

/** The `{{name}}` placeholders of a template, in order of first use, each once. */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g))
    names.add(match[1] as string);
  return [...names];
}

// --- internal ---

function defaultKind(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value) || "kind" in value)
    return value;
  return { ...value, kind: "agent" };
}

function normalizeStep(step: StepInput): FleetStep {
  const base = {
    id: step.id,
    dependencies: step.dependencies ?? [],
    scope: step.scope ?? "readonly",
    writes: step.writes ?? [],
  };
  if (step.kind === "agent") return { ...base, kind: "agent", agent: step.agent };
  if (step.kind === "command") return { ...base, kind: "command", command: step.command };
  return {
    ...base,
    kind: "loop",
    maxAttempts: step.maxAttempts,
    check: step.check,
    repair: step.repair,
  };
}

/** Duplicate ids, unknown or self dependencies, and cycles, each named. */
function graphDiagnostics(steps: readonly FleetStep[], path: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) {
      diagnostics.push(
        createDiagnostic("error", "step_duplicate", `two steps are named "${step.id}"`, {
          path,
          details: { step: step.id },
        }),
      );
    }
    ids.add(step.id);
  }
  for (const step of steps) {
    for (const dependency of step.dependencies) {
      if (!ids.has(dependency)) {
        diagnostics.push(
          createDiagnostic(
            "error",
            "step_dependency_unknown",
            `step "${step.id}" depends on "${dependency}", which is not a step of this fleet`,
            { path, details: { step: step.id, dependency } },
          ),
        );
      }
    }
  }
  const cycle = findCycle(steps);
  if (cycle !== undefined) {
    diagnostics.push(
      createDiagnostic(
        "error",
        "step_cycle",
        `steps depend on each other in a cycle: ${cycle.join(" → ")}`,
        { path, details: { cycle } },
      ),
    );
  }
  return diagnostics;
}

/** The first dependency cycle, as step ids ending where they start, or `undefined`. */
function findCycle(steps: readonly FleetStep[]): string[] | undefined {
  const dependencies = new Map(steps.map((step) => [step.id, step.dependencies]));
  const state = new Map<string, "visiting" | "done">();
  const trail: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done" || !dependencies.has(id)) return undefined;
    if (state.get(id) === "visiting") return [...trail.slice(trail.indexOf(id)), id];
    state.set(id, "visiting");
    trail.push(id);
    for (const dependency of dependencies.get(id) ?? []) {
      const found = visit(dependency);
      if (found !== undefined) return found;
    }
    trail.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const step of steps) {
    const found = visit(step.id);
    if (found !== undefined) return found;
  }
  return undefined;
}
