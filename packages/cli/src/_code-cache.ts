import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";

/*
 * The bin runs one CommonJS bundle (dist/skillshelf.cjs) compiled with the V8 code cache the build
 * made beside it (dist/skillshelf.cache) by running commands through it: a start then skips
 * parsing and compiling most of what a command runs. Node 20 has no compile cache of its own for
 * modules. The build stamps the bundle's last line with the SHA-256 of what it built
 * (`//# skillshelf-build <hex>`), and the cache file starts with that stamp, then V8's data: a
 * cache of another build is not offered; V8 refuses data made from a source of another length,
 * by another V8 version or with other flags, and damaged bytes; either way the bundle is compiled
 * as if there were no cache. Comparing stamps instead of hashing the bundle at every start spares
 * loading node:crypto and hashing a megabyte (about 3 ms of a 50 ms command).
 */

/** What the bundle exports (src/bin.ts). */
type BinExports = typeof import("./bin.js");

/** The compiled bundle: its exports, source and script (whose cache data the build writes). */
export interface LoadedBundle {
  readonly exports: BinExports;
  readonly source: string;
  readonly script: Script;
  /** Whether the cache was there, made from this bundle, and taken by V8. */
  readonly cached: boolean;
  /** The build's stamp (64 hex digits), when the bundle carries one. */
  readonly stamp: string | undefined;
}

/*
 * V8's flags for every run of the bundle, set before it is compiled: the audit's grammars are
 * WebAssembly of a few MB, which V8's optimizing tier recompiles in the background, and a command
 * then waits seconds at exit for work that could not pay back in a run this short; its baseline
 * compiler alone parses as fast for what one command reads. V8 refuses a code cache made under
 * other flags, so the build's training run and its check load the bundle here too.
 */
const V8_FLAGS = "--liftoff-only";

/** How the build's stamp line starts; the 64 hex digits of the digest follow. */
export const BUILD_STAMP = "\n//# skillshelf-build ";
const STAMP_LENGTH = 64;

/**
 * Compile and run the bundle at `bundle`, with the code cache at `cache` if given and fitting.
 * The bundle's `require` is `load` when given (the bin's own, from the same folder: node:module
 * is then not loaded at every start), or one made for the bundle's path.
 */
export function loadBundle(
  bundle: string,
  cache?: string,
  load: NodeJS.Require = process.getBuiltinModule("node:module").createRequire(bundle),
): LoadedBundle {
  // esbuild writes ASCII only (the build checks): read as latin1, the bytes are the string's,
  // with no UTF-8 decoding of a megabyte at every start
  setFlagsFromString(V8_FLAGS);
  const source = readFileSync(bundle, "latin1");
  const stamp = stampOf(source);
  const cachedData =
    cache === undefined || stamp === undefined ? undefined : cacheFor(stamp, cache);
  const script = new Script(wrapped(source), {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} as BinExports };
  script.runInThisContext()(module.exports, load, module, bundle, dirname(bundle));
  return {
    exports: module.exports,
    source,
    script,
    cached: cachedData !== undefined && !script.cachedDataRejected,
    stamp,
  };
}

/** The cache file of a loaded, stamped bundle: its stamp, then V8's data of what has run. */
export function cacheFile(loaded: LoadedBundle): Buffer {
  const { stamp } = loaded;
  if (stamp === undefined) throw new Error("code cache: the bundle carries no build stamp");
  return Buffer.concat([Buffer.from(stamp, "latin1"), loaded.script.createCachedData()]);
}

// --- internal ---

/** The bundle as CommonJS wraps a module, so `require` and `module` are its own. */
function wrapped(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** The stamp on the bundle's last line, if the build left one there. */
function stampOf(source: string): string | undefined {
  const at = source.lastIndexOf(BUILD_STAMP);
  if (at < 0) return undefined;
  const stamp = source.slice(at + BUILD_STAMP.length).trimEnd();
  return /^[0-9a-f]{64}$/.test(stamp) ? stamp : undefined;
}

function cacheFor(stamp: string, cache: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(cache);
  } catch {
    return undefined;
  }
  return data.length > STAMP_LENGTH && data.toString("latin1", 0, STAMP_LENGTH) === stamp
    ? data.subarray(STAMP_LENGTH)
    : undefined;
}
