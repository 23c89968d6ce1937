import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

/*
 * The bin runs one CommonJS bundle (dist/skillshelf.cjs) compiled with the V8 code cache the build
 * made beside it (dist/skillshelf.cache) by running commands through it: a start then skips
 * parsing and compiling most of what a command runs. Node 20 has no compile cache of its own for
 * modules. The cache file starts with the SHA-256 of the bundle it was made from, then V8's
 * data: a cache of another bundle is not offered, V8 refuses data from another V8 version, other
 * flags or damaged bytes, and either way the bundle is compiled as if there were no cache.
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
}

const DIGEST_BYTES = 32;

/** Compile and run the bundle at `bundle`, with the code cache at `cache` if given and fitting. */
export function loadBundle(bundle: string, cache?: string): LoadedBundle {
  const source = readFileSync(bundle, "utf8");
  const cachedData = cache === undefined ? undefined : cacheFor(source, cache);
  const script = new Script(wrapped(source), {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} as BinExports };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return {
    exports: module.exports,
    source,
    script,
    cached: cachedData !== undefined && !script.cachedDataRejected,
  };
}

/** The cache file of a loaded bundle: its source's digest, then V8's data of what has run. */
export function cacheFile(loaded: LoadedBundle): Buffer {
  return Buffer.concat([digestOf(loaded.source), loaded.script.createCachedData()]);
}

// --- internal ---

/** The bundle as CommonJS wraps a module, so `require` and `module` are its own. */
function wrapped(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

function cacheFor(source: string, cache: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(cache);
  } catch {
    return undefined;
  }
  return data.length > DIGEST_BYTES && digestOf(source).equals(data.subarray(0, DIGEST_BYTES))
    ? data.subarray(DIGEST_BYTES)
    : undefined;
}

function digestOf(source: string): Buffer {
  return createHash("sha256").update(source).digest();
}
