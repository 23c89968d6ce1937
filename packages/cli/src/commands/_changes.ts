import type { CommandInput } from "../command.js";
import { printJson } from "../context.js";
import { type ChangeCommand, type ChangeValues, runChange } from "./change.js";

/** One of the changes a command makes: what it is about, the options it sets, what follows it. */
export interface ChangeRun {
  readonly command: ChangeCommand;
  readonly positionals: readonly string[];
  readonly values?: Partial<ChangeValues>;
  /** Called with the change's exit status before the next change runs. */
  readonly afterwards?: ((status: number) => void) | undefined;
}

/**
 * Several changes as one command, each a reviewed plan of its own: in text each prints as it
 * runs; with `--json` their results are gathered into one document (`head`, then `changes`).
 * The exit status is the worst of them.
 */
export async function runChanges(
  input: CommandInput<ChangeValues>,
  head: Record<string, unknown>,
  runs: readonly ChangeRun[],
): Promise<number> {
  const { json } = input.values;
  const changes: unknown[] = [];
  const io = json
    ? { ...input.io, stdout: (text: string) => void changes.push(JSON.parse(text)) }
    : input.io;
  let status = 0;
  for (const run of runs) {
    const values = { ...input.values, ...run.values };
    const ran = await runChange(
      { ...input, io, positionals: run.positionals, values },
      run.command,
    );
    run.afterwards?.(ran);
    status = Math.max(status, ran);
  }
  if (json) printJson(input.io, input.context(), { ...head, changes });
  return status;
}
