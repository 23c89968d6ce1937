import type { LifecycleProgress } from "@skillshelf/lifecycle";
import { safeLine } from "./format.js";
import type { CliIo } from "./io.js";

/**
 * Ask a yes/no question at the terminal (default no); `false` when the person cancels. Uses
 * `@clack/prompts`, imported only when a question is asked, so commands that never ask start fast.
 */
export async function confirm(io: CliIo, message: string): Promise<boolean> {
  if (!io.interactive) return false;
  const prompts = await import("@clack/prompts");
  const answer = await prompts.confirm({ message, initialValue: false });
  return answer === true;
}

/** Let the person pick some of `choices` at the terminal; `undefined` when they cancel. */
export async function choose(
  io: CliIo,
  message: string,
  choices: readonly { readonly value: string; readonly hint: string }[],
): Promise<string[] | undefined> {
  if (!io.interactive) return undefined;
  const prompts = await import("@clack/prompts");
  const answer = await prompts.multiselect({
    message,
    options: choices.map((choice) => ({
      value: choice.value,
      label: choice.value,
      hint: choice.hint,
    })),
    required: true,
  });
  return prompts.isCancel(answer) ? undefined : answer;
}

/**
 * A reporter of long work on stderr, only when stderr is a terminal: one line, rewritten as the
 * work moves on, cleared by `done`. Off a terminal it says nothing, so logs and pipes stay plain.
 */
export function progressLine(io: CliIo): { update(text: string): void; done(): void } {
  if (!io.progress) return { update: () => {}, done: () => {} };
  let shown = false;
  return {
    update(text) {
      io.stderr(`\r\x1b[K${text}`);
      shown = true;
    },
    done() {
      if (shown) io.stderr("\r\x1b[K");
      shown = false;
    },
  };
}

/** Run long work with its progress on the terminal's line, cleared when it ends. */
export async function withProgress<T>(
  io: CliIo,
  work: (progress: (event: LifecycleProgress) => void) => Promise<T>,
): Promise<T> {
  const line = progressLine(io);
  try {
    return await work((event) => line.update(progressText(event)));
  } finally {
    line.done();
  }
}

/** What the progress line says of a lifecycle event. */
export function progressText(event: LifecycleProgress): string {
  return event.phase === "stage"
    ? `fetching ${safeLine(event.source)} …`
    : `applying ${event.index + 1}/${event.count}: ${safeLine(event.ref)} …`;
}
