import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The preload that counts a Node process's file-system writes and kills it at one of them. */
export const KILL_AT_WRITE_PRELOAD: string = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "preload",
  "kill-at-write.cjs",
);

/**
 * Environment variables that make a Node child process (the built CLI, say) die by SIGKILL right
 * before its `killAt`-th file-system write (0: never), and write how many it made to `countFile`
 * when it exits on its own.
 */
export function crashAtWrite(options: {
  readonly killAt: number;
  readonly countFile?: string | undefined;
}): Record<string, string> {
  return {
    NODE_OPTIONS: `--require "${KILL_AT_WRITE_PRELOAD}"`,
    SKILLSHELF_KILL_AT_WRITE: String(options.killAt),
    ...(options.countFile === undefined ? {} : { SKILLSHELF_WRITE_COUNT_FILE: options.countFile }),
  };
}

/**
 * Environment variables that make a Node child process send itself `signal` (as Ctrl-C or a
 * `kill` would) right before its first file-system write to a path containing `path`: a real
 * process interrupted at a known moment of its work (the start of a commit: its step journal).
 */
export function signalAtWrite(options: {
  readonly path: string;
  readonly signal: "SIGINT" | "SIGTERM" | "SIGKILL";
}): Record<string, string> {
  return {
    NODE_OPTIONS: `--require "${KILL_AT_WRITE_PRELOAD}"`,
    SKILLSHELF_SIGNAL_AT_PATH: options.path,
    SKILLSHELF_SIGNAL: options.signal,
  };
}
