import type { FleetContractFields, FleetStep } from "./fleet.js";

/** Something a fleet needs that is not defined beside it: an agent recipe or a host command. */
export interface FleetPrerequisite {
  readonly type: "agent" | "command";
  readonly identifier: string;
  /** The steps that need it, in step order. */
  readonly steps: readonly string[];
}

/**
 * The agents and commands a fleet's steps name that `defined` does not hold, each once, in order of
 * first use. Skillshelf collects these as data; installing or running them is the host's business.
 */
export function fleetPrerequisites(
  fleet: Pick<FleetContractFields, "steps">,
  defined: { readonly agents?: Iterable<string>; readonly commands?: Iterable<string> } = {},
): FleetPrerequisite[] {
  const agents = new Set(defined.agents);
  const commands = new Set(defined.commands);
  const found = new Map<
    string,
    { type: "agent" | "command"; identifier: string; steps: string[] }
  >();
  for (const step of fleet.steps) {
    for (const need of needsOf(step)) {
      if ((need.type === "agent" ? agents : commands).has(need.identifier)) continue;
      const key = `${need.type}:${need.identifier}`;
      const entry = found.get(key);
      if (entry === undefined) found.set(key, { ...need, steps: [step.id] });
      else if (!entry.steps.includes(step.id)) entry.steps.push(step.id);
    }
  }
  return [...found.values()];
}

// --- internal ---

function needsOf(step: FleetStep): { type: "agent" | "command"; identifier: string }[] {
  if (step.kind === "agent") return [{ type: "agent", identifier: step.agent }];
  if (step.kind === "command") return [{ type: "command", identifier: step.command }];
  const check =
    "command" in step.check
      ? { type: "command" as const, identifier: step.check.command }
      : { type: "agent" as const, identifier: step.check.agent };
  return [check, { type: "agent", identifier: step.repair.agent }];
}
