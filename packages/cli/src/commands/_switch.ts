import { findAgent } from "@skillshelf/core";
import { switchPackages } from "@skillshelf/lifecycle";
import type { CommandInput } from "../command.js";
import { printJson } from "../context.js";
import { displayPath, plural } from "../format.js";
import { UsageError } from "../usage-error.js";
import { agentsOption } from "./_agents.js";
import type { ChangeValues } from "./change.js";

/**
 * `enable|disable <id…> --agent a,b`: the packages' skills turned on or off in each agent's own
 * switch, the packages themselves unchanged for every other agent.
 */
export async function runAgentSwitch(
  input: CommandInput<ChangeValues>,
  command: "enable" | "disable",
): Promise<number> {
  const { io } = input;
  const context = input.context();
  if (input.positionals.length === 0)
    throw new UsageError("usage_missing_argument", `${command} --agent needs the package ids`);
  const agents = agentsOption(input, command);
  if (agents === undefined || agents === "all")
    throw new UsageError("usage_invalid_value", `${command} --agent needs the agents named`);
  const writes = await switchPackages({
    environment: context.environment,
    ids: input.positionals,
    agents: agents.flatMap((id) => findAgent(id) ?? []),
    on: command === "enable",
  });
  if (input.values.json) {
    printJson(io, context, { ok: true, writes });
    return 0;
  }
  for (const write of writes) {
    const names = command === "enable" ? write.enabled : write.disabled;
    io.stdout(
      write.changed
        ? `${write.agent}: ${plural(names.length, "skill")} ${command === "enable" ? "back on" : "off"} in ${displayPath(write.file, context.style)}\n`
        : `${write.agent}: its switch already says so\n`,
    );
  }
  return 0;
}
