import { AGENTS, closest, findAgent } from "@skillshelf/core";
import type { CommandInput } from "../command.js";
import { UsageError } from "../usage-error.js";

/** `--agent a,b` (each an agent of the table) or `--all-agents`; `undefined` when neither is given. */
export function agentsOption(
  input: CommandInput<{
    readonly agent?: readonly string[];
    readonly "all-agents"?: boolean;
  }>,
  command: string,
): readonly string[] | "all" | undefined {
  const named = (input.values.agent ?? [])
    .flatMap((value) => value.split(","))
    .filter((id) => id !== "");
  const all = input.values["all-agents"] === true;
  if (all && named.length > 0)
    throw new UsageError(
      "usage_invalid_value",
      "--agent and --all-agents cannot be combined; pick one",
    );
  for (const id of named)
    if (findAgent(id) === undefined)
      throw new UsageError(
        "usage_invalid_value",
        `${id} is not an agent of the agent table (skillshelf explain --all lists them)`,
        {
          suggestion: closest(
            id,
            AGENTS.map((agent) => agent.id),
          ),
        },
      );
  if (command === "link" && !all && named.length === 0)
    throw new UsageError("usage_missing_argument", "link needs --agent a,b or --all-agents");
  // an alias (github-copilot) stands for its agent's id
  const ids = [...new Set(named.map((id) => findAgent(id)?.id ?? id))];
  return all ? "all" : ids.length > 0 ? ids : undefined;
}
