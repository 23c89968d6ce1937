import { findAgent } from "@skillshelf/core";
import { rollbackSwitch, type SwitchWrite, switchPackages } from "@skillshelf/lifecycle";
import type { CommandInput } from "../command.js";
import { printJson } from "../context.js";
import { UsageError } from "../usage-error.js";
import { agentsOption } from "./_agents.js";
import { printWrites } from "./_switch-writes.js";
import type { ChangeValues } from "./change.js";

/**
 * `enable|disable <id…> --agent a,b`: the packages' skills turned on or off in each agent's own
 * switch, the packages themselves unchanged for every other agent. `rollback --agent a,b`: each
 * agent's switch put back as Skillshelf's last write to it found it.
 */
export async function runAgentSwitch(
  input: CommandInput<ChangeValues>,
  command: "enable" | "disable" | "rollback",
): Promise<number> {
  const { io } = input;
  const context = input.context();
  const { environment } = context;
  const rollback = command === "rollback";
  if (rollback !== (input.positionals.length === 0))
    throw new UsageError(
      rollback ? "usage_invalid_value" : "usage_missing_argument",
      rollback
        ? "rollback --agent puts back the agents' switches: name no package with it"
        : `${command} --agent needs the package ids`,
    );
  const agents = agentsOption(input, command);
  if (agents === undefined || agents === "all")
    throw new UsageError("usage_invalid_value", `${command} --agent needs the agents named`);
  const definitions = agents.flatMap((id) => findAgent(id) ?? []);
  const writes: SwitchWrite[] = [];
  if (rollback)
    for (const agent of definitions) {
      const write = await rollbackSwitch(environment, agent);
      if (write !== undefined) writes.push(write);
      else if (!input.values.json) io.stdout(`${agent.id}: Skillshelf never changed its switch\n`);
    }
  else
    writes.push(
      ...(await switchPackages({
        environment,
        ids: input.positionals,
        agents: definitions,
        on: command === "enable",
      })),
    );
  if (input.values.json) {
    printJson(io, context, { ok: true, writes });
    return 0;
  }
  printWrites(io, context.style, writes);
  return 0;
}
