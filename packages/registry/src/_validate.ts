import type { SkillCandidate, SkillDefinition, SkillSummary } from "./types.js";

/** The skill name grammar: kebab case. */
export const SKILL_NAME: RegExp = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Why a summary is unacceptable from `provider`, or `undefined` when it is fine. */
function summaryProblem(value: unknown, provider: string): string | undefined {
  if (typeof value !== "object" || value === null) return "is not an object";
  const summary = value as Partial<Record<keyof SkillSummary, unknown>>;
  if (typeof summary.name !== "string" || !SKILL_NAME.test(summary.name))
    return `has an invalid name ${JSON.stringify(summary.name)}`;
  if (typeof summary.description !== "string" || summary.description.trim() === "")
    return `"${summary.name}" has no description`;
  const invocation = summary.invocation as Partial<Record<string, unknown>> | undefined;
  if (
    typeof invocation?.modelInvocable !== "boolean" ||
    typeof invocation.userInvocable !== "boolean"
  )
    return `"${summary.name}" has invocation flags that are not booleans`;
  if (typeof summary.source !== "string") return `"${summary.name}" has no source`;
  for (const field of ["path", "whenToUse"] as const)
    if (summary[field] !== undefined && typeof summary[field] !== "string")
      return `"${summary.name}" has a ${field} that is not a string`;
  if (summary.resourceBase !== undefined && !isResourceBase(summary.resourceBase))
    return `"${summary.name}" has a resourceBase that is not a directory, url or opaque base`;
  if (summary.provider !== provider)
    return `"${summary.name}" claims provider ${JSON.stringify(summary.provider)}, not "${provider}"`;
  return undefined;
}

// the three shapes catalog-view's `ResourceBase` takes
function isResourceBase(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const base = value as Record<string, unknown>;
  const field = { directory: "path", url: "url", opaque: "description" }[String(base.kind)];
  return field !== undefined && typeof base[field] === "string";
}

/** Why a candidate is unacceptable, or `undefined`. */
export function candidateProblem(value: unknown, provider: string): string | undefined {
  const problem = summaryProblem(value, provider);
  if (problem !== undefined) return problem;
  const { rank, name } = value as SkillCandidate;
  return typeof rank === "number" && Number.isFinite(rank)
    ? undefined
    : `"${name}" has a rank that is not a finite number`;
}

/** Why a loaded definition is unacceptable, or `undefined`. */
export function definitionProblem(value: unknown, provider: string): string | undefined {
  const problem = summaryProblem(value, provider);
  if (problem !== undefined) return problem;
  return typeof (value as SkillDefinition).content === "string"
    ? undefined
    : `"${(value as SkillDefinition).name}" has no content`;
}

/** Just the summary fields of a candidate or definition. */
export function toSummary(value: SkillSummary): SkillSummary {
  const { name, path, description, whenToUse, invocation, source, provider, resourceBase } = value;
  return {
    name,
    description,
    invocation: {
      modelInvocable: invocation.modelInvocable,
      userInvocable: invocation.userInvocable,
    },
    source,
    provider,
    ...(path === undefined ? {} : { path }),
    ...(whenToUse === undefined ? {} : { whenToUse }),
    ...(resourceBase === undefined ? {} : { resourceBase }),
  };
}
