import { type BigIntStats, fstatSync, statSync, writeSync } from "node:fs";
import type { Readable, Writable } from "node:stream";

/** Where the command line writes, and what it knows about its process; tests pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Colour only on a terminal and never with `NO_COLOR`. */
  readonly color: boolean;
  /** A person can answer: stdin and stdout are a terminal. Changes ask before applying. */
  readonly interactive: boolean;
  /** stderr is a terminal: long work shows progress there. */
  readonly progress: boolean;
  /**
   * Call `handler` on Ctrl-C or SIGTERM instead of ending the process, until the returned
   * function is called: for work that can stop cleanly (fetching), never for a change on disk.
   */
  readonly onInterrupt?: ((handler: () => void) => () => void) | undefined;
  /**
   * The running bin's build stamp. With one, `list` keeps the skills it parsed between runs, in
   * the user's cache folder, for this build alone (`_skill-cache.ts`); without (tests, the
   * library), nothing is kept.
   */
  readonly build?: string | undefined;
  /** The input and output as streams, for a protocol spoken over them (`mcp serve`). */
  readonly streams?: (() => { readonly stdin: Readable; readonly stdout: Writable }) | undefined;
}

/** The io of a real process, and a promise that what it wrote through streams has left. */
export interface ProcessIo extends CliIo {
  settled(): Promise<void>;
}

/**
 * The io of a real process. Text is written to file descriptors 1 and 2 at once, as Node's own
 * stdout and stderr write to files, pipes and terminals on Linux; `process.stdout` and
 * `process.stderr` are opened only for a protocol (`streams`) or a question at the terminal, since
 * opening them loads Node's stream modules (about 4 ms of a 30 ms start). A reader that stops early
 * (`skillshelf list | head -1`) is not an error: the process ends with the status it had.
 */
export function processIo(build?: string): ProcessIo {
  const env = process.env;
  const plain = (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb";
  let opened = false;
  return {
    stdout: (text) => writeAll(1, text),
    stderr: (text) => writeAll(2, text),
    env,
    cwd: process.cwd(),
    build,
    color: isTerminal(1) && !plain,
    // asked only by a change about to be confirmed; a question opens the streams
    get interactive() {
      const answerable = isTerminal(0) && isTerminal(1);
      if (answerable) opened = true;
      return answerable;
    },
    progress: isTerminal(2),
    onInterrupt: (handler) => {
      for (const signal of INTERRUPTS) process.on(signal, handler);
      return () => {
        for (const signal of INTERRUPTS) process.off(signal, handler);
      };
    },
    streams() {
      opened = true;
      for (const stream of [process.stdout, process.stderr]) stream.on("error", endOnClosedReader);
      return { stdin: process.stdin, stdout: process.stdout };
    },
    settled: () => (opened ? flushed(process.stdout).then(() => flushed(process.stderr)) : done),
  };
}

// --- internal ---

const INTERRUPTS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

const done = Promise.resolve();

/** Write all of `text` to `fd`, waiting out a descriptor another process left non-blocking. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") endOnClosedReader(error);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

function endOnClosedReader(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
}

/**
 * Whether `fd` is a terminal. A pipe, a file and the null device (`stdio: "ignore"`,
 * `>/dev/null`) are told from their stats; only another character device asks `node:tty`, which
 * loads the stream and socket modules.
 */
function isTerminal(fd: number): boolean {
  // BigInt stats: Node 20's realpathSync reads the mode the last plain stat left in a shared
  // array, and a pipe's or a socket's there makes it stop resolving links (an external module
  // then loads from its symlinked path and cannot find its own dependencies)
  let stats: BigIntStats;
  try {
    stats = fstatSync(fd, { bigint: true });
  } catch {
    return false;
  }
  if (!stats.isCharacterDevice()) return false;
  const nullDevice = statSync("/dev/null", { bigint: true, throwIfNoEntry: false });
  if (stats.rdev === nullDevice?.rdev) return false;
  return process.getBuiltinModule("node:tty").isatty(fd);
}

function flushed(stream: Writable): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}
