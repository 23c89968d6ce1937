import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../src/main.js";

/** The built bin: these tests run the real command, as a user would. */
export const BIN: string = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli.cjs");
export const REPO: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const EXAMPLES: string = join(REPO, "examples");

export interface CliRun {
  readonly status: number | null;
  /** `SIGKILL` when it ran past `timeoutMs`. */
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `skillshelf` in a child process with only the given environment (plus PATH). */
export function runCli(
  args: readonly string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
    /** A command the bin is run through (`readOnlyFolder`'s, `smallFilesystem`'s). */
    wrapper?: readonly string[];
  } = {},
): CliRun {
  if (!existsSync(BIN)) throw new Error(`build the CLI first: ${BIN} is missing (pnpm build)`);
  const [command = process.execPath, ...prefix] = [...(options.wrapper ?? []), process.execPath];
  const result = spawnSync(command, [...prefix, BIN, ...args], {
    cwd: options.cwd ?? REPO,
    env: { PATH: process.env.PATH ?? "", ...options.env },
    encoding: "utf8",
    ...(options.timeoutMs === undefined
      ? {}
      : { timeout: options.timeoutMs, killSignal: "SIGKILL" }),
  });
  return {
    status: result.status,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

/**
 * Run `skillshelf` in this process through `main(argv, io)`, as the bin does, with only the given
 * environment (plus PATH): no terminal, no colour, output collected. Faster than a child process;
 * the spawned `runCli` stays for what needs a process of its own (the bin itself, signals, a
 * staging folder from `TMPDIR`, loopback servers answering while git runs).
 */
export async function runMain(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { PATH: process.env.PATH ?? "", ...options.env },
    cwd: options.cwd ?? REPO,
    color: false,
    interactive: false,
    progress: false,
  });
  return { status, signal: null, stdout, stderr };
}

/** The environment of the bundled example library: its home, its user library. */
export function exampleEnv(): Record<string, string> {
  const home = join(EXAMPLES, "home");
  return { HOME: home, SKILLSHELF_HOME: join(home, ".config", "skillshelf") };
}

/**
 * `runCli` without blocking this process, for tests whose loopback servers must answer while the
 * command runs.
 */
export function runCliAsync(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  if (!existsSync(BIN)) throw new Error(`build the CLI first: ${BIN} is missing (pnpm build)`);
  return finished(
    spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO,
      env: { PATH: process.env.PATH ?? "", ...options.env },
    }),
  );
}

/** What a run in a pseudo-terminal printed (stdout and stderr together, as a terminal shows them). */
export interface PtyRun {
  readonly status: number;
  readonly output: string;
  readonly timedOut: boolean;
}

/** How a run in a pseudo-terminal is set up: the command, and each reply once its prompt text appeared. */
interface PtyOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly answers?: readonly [string, string][];
}

/**
 * Run `skillshelf` in a real pseudo-terminal (Python's standard `pty` module drives it), typing
 * each reply once its prompt text has appeared.
 */
export function runCliInPty(args: readonly string[], options: PtyOptions): PtyRun {
  const result = spawnSync("python3", ptyDriverArgs(args, options), { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`the pty driver failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as PtyRun;
}

/** `runCliInPty` without blocking this process, for tests whose loopback servers must answer. */
export async function runCliInPtyAsync(
  args: readonly string[],
  options: PtyOptions,
): Promise<PtyRun> {
  const run = await finished(spawn("python3", ptyDriverArgs(args, options)));
  if (run.status !== 0) throw new Error(`the pty driver failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as PtyRun;
}

/** What a child process printed, and how it ended, once it has. */
function finished(child: ChildProcessWithoutNullStreams): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (status, signal) => resolvePromise({ status, signal, stdout, stderr }));
  });
}

function ptyDriverArgs(args: readonly string[], options: PtyOptions): string[] {
  if (!existsSync(BIN)) throw new Error(`build the CLI first: ${BIN} is missing (pnpm build)`);
  const spec = {
    argv: [process.execPath, BIN, ...args],
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", TERM: "xterm-256color", ...options.env },
    answers: options.answers ?? [],
    timeout: 100,
  };
  const driver = join(dirname(fileURLToPath(import.meta.url)), "pty-driver.py");
  return [driver, JSON.stringify(spec)];
}
