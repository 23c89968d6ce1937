import { execFileSync } from "node:child_process";
import { loadSkills, type ResourceRoot, type SkillCache } from "@skillshelf/skills-loader";
import type { rawParse } from "./baseline.js";
import type { InstallableSkills } from "./corpus-tree.js";

/** Load a generated tree the way the benchmark does: only its roots, nothing from this machine. */
export function loadTree(
  roots: readonly ResourceRoot[],
  cache?: SkillCache,
): ReturnType<typeof loadSkills> {
  return loadSkills({ cwd: "/nonexistent", home: "/nonexistent", env: {}, roots, cache });
}

/**
 * Winners as `name → path`, from the baseline and from `loadSkills`; equal maps mean identical
 * results for the benchmark's purpose.
 */
export function winnersOf(
  result: ReturnType<typeof loadSkills> | ReturnType<typeof rawParse>,
): Map<string, string> {
  const entries = result instanceof Map ? [...result.values()] : result.items;
  return new Map(
    entries
      .map((skill) => [skill.name, skill.path] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** Median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The median over rounds of `ours[i] / base[i]`: each round's pair was timed side by side, so a
 * slow phase of a shared machine falls on both halves of a pair rather than on one median.
 */
export function medianRatio(ours: readonly number[], base: readonly number[]): number {
  return median(ours.map((time, round) => time / (base[round] as number)));
}

/**
 * Time each variant once per round, rotating their order every round, after `warmups` untimed
 * calls of each (one unless told: a variant of a few milliseconds needs about ten before the
 * compiler has settled); a measurement runs the variant `repeat` times and reports milliseconds
 * per call.
 */
export function timeSideBySide(
  variants: Readonly<Record<string, () => unknown>>,
  rounds: number,
  repeat = 1,
  warmups = 1,
): Record<string, number[]> {
  const names = Object.keys(variants);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let call = 0; call < warmups; call++) for (const name of names) variants[name]?.();
  for (const name of rotation(names, rounds)) {
    const variant = variants[name] as () => unknown;
    const start = startClock();
    for (let call = 0; call < repeat; call++) variant();
    times[name]?.push(elapsedMs(start) / repeat);
  }
  return times;
}

/**
 * `timeSideBySide` for variants that return a promise: each call is awaited before the next.
 * `warmups` untimed calls of each variant come first (a server in another process needs more
 * than one to be warm); a measurement is the mean of `repeat` calls.
 */
export async function timeSideBySideAsync(
  variants: Readonly<Record<string, () => Promise<unknown>>>,
  rounds: number,
  {
    warmups = 1,
    repeat = 1,
    settle,
  }: {
    readonly warmups?: number;
    readonly repeat?: number;
    /** Run untimed before each timed call: clear what earlier calls wrote, sync the disk. */
    readonly settle?: (() => void) | undefined;
  } = {},
): Promise<Record<string, number[]>> {
  const names = Object.keys(variants);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let call = 0; call < warmups; call++) for (const name of names) await variants[name]?.();
  for (const name of rotation(names, rounds)) {
    const variant = variants[name] as () => Promise<unknown>;
    settle?.();
    const start = startClock();
    for (let call = 0; call < repeat; call++) await variant();
    times[name]?.push(elapsedMs(start) / repeat);
  }
  return times;
}

/** What every benchmark suite is given. */
export interface BenchOptions {
  /** Items to generate. */
  readonly count: number;
  readonly rounds: number;
  /** Where generated trees go. */
  readonly workDir: string;
  /** The folder of the built benchmark scripts (for child processes). */
  readonly binDir: string;
  /** The corpus's real skills a plain install takes, found on first use. */
  readonly skills: InstallableSkills;
}

/** `met` or `NOT MET`, for a target line. */
export function verdict(met: boolean): string {
  return met ? "met" : "NOT MET";
}

/** Markdown rows `| variant | ms | µs per item | ratio |`, each against the `base` variant's median. */
export function ratioRows(
  times: Readonly<Record<string, readonly number[]>>,
  base: string,
  items: number,
): string[] {
  const baseMs = median(times[base] ?? []);
  return Object.entries(times).map(([name, list]) => {
    const ms = median(list);
    return `| ${name} | ${ms.toFixed(1)} | ${((ms * 1000) / items).toFixed(1)} | ${(ms / baseMs).toFixed(2)}× |`;
  });
}

// --- internal ---

/**
 * `timeSideBySide` for variants that need untimed work first (a fresh home with packages
 * installed): each measurement runs `prepare`, lets its writes reach the disk (`sync`: the timed
 * run then neither flushes them nor competes with their writeback, and what it deletes or
 * replaces is on disk, as what a person installed yesterday is), then times `run` with what
 * `prepare` gave.
 */
export function timePrepared(
  variants: Readonly<Record<string, { prepare: () => unknown; run: (prepared: never) => unknown }>>,
  rounds: number,
): Record<string, number[]> {
  const names = Object.keys(variants);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) {
    const variant = variants[name];
    variant?.run(variant.prepare() as never);
  }
  for (const name of rotation(names, rounds)) {
    const { prepare, run } = variants[name] as (typeof variants)[string];
    const prepared = prepare() as never;
    execFileSync("sync");
    const start = startClock();
    run(prepared);
    times[name]?.push(elapsedMs(start));
  }
  return times;
}

/** Every name once per round, the order rotated by one each round. */
function* rotation(names: readonly string[], rounds: number): Generator<string> {
  for (let round = 0; round < rounds; round++)
    for (let offset = 0; offset < names.length; offset++)
      yield names[(round + offset) % names.length] as string;
}

/** Collect garbage when node runs with `--expose-gc`, then read the clock. */
function startClock(): bigint {
  (globalThis as { gc?: () => void }).gc?.();
  return process.hrtime.bigint();
}

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
