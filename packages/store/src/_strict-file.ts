import { type BigIntStats, lstatSync } from "node:fs";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  decodeText,
  errnoCode,
  isSkillshelfError,
  parseJson,
  type ReadResult,
  readRegularFile,
  type SchemaIssue,
  schemaDiagnostics,
} from "@skillshelf/core";
import type { ScopeCache } from "./cache.js";

/** A strictly read scope file: its value (`empty` when the file does not exist) and exact text. */
export interface StrictFile<T> {
  readonly path: string;
  readonly value: T;
  readonly text: string | undefined;
}

/**
 * Read a JSON file a writer owns (`state.json`, `lock.json`) strictly: absent is `empty`; a file
 * that is a symlink or has other hard links is `unsafe`; one that cannot be read, is not JSON or
 * breaks the schema in any way is `invalid`, reported with its path and never overwritten.
 */
export function readStrictFile<T>(options: {
  readonly path: string;
  readonly what: string;
  readonly maxBytes: number;
  readonly empty: T;
  readonly parse: (
    value: unknown,
  ) => { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
  readonly codes: { readonly invalid: Code; readonly unsafe: Code };
  readonly consequence: string;
  readonly cache?: ScopeCache | undefined;
}): ReadResult<StrictFile<T>> {
  const { path, codes } = options;
  const invalid = (problem: string): Diagnostic =>
    createDiagnostic("error", codes.invalid, `${path} ${problem}; ${options.consequence}`, {
      path,
    });
  const refuse = (diagnostics: Diagnostic[]): ReadResult<StrictFile<T>> => ({
    ok: false,
    diagnostics,
  });
  let stats: BigIntStats | undefined;
  try {
    stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    return refuse([invalid(`cannot be read (${errnoCode(error) ?? String(error)})`)]);
  }
  if (stats === undefined)
    return { ok: true, value: { path, value: options.empty, text: undefined }, diagnostics: [] };
  if (!stats.isFile() || stats.nlink > 1n)
    return refuse([
      createDiagnostic(
        "error",
        codes.unsafe,
        `${path} must be a plain file, not a symlink, folder or hard link`,
        { path },
      ),
    ]);
  // nanosecond times, and a fresh inode for every atomic write: an unchanged stamp is unchanged bytes
  const stamp = `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}:${stats.dev}`;
  const kept = options.cache?.unchanged(path, stamp);
  if (kept !== undefined)
    return { ok: true, value: { path, value: kept.value as T, text: kept.text }, diagnostics: [] };
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, options.maxBytes);
  } catch (error) {
    return refuse([invalid(unreadable(error, options.maxBytes))]);
  }
  const reused = options.cache?.reuse(path, bytes, stamp);
  if (reused !== undefined)
    return {
      ok: true,
      value: { path, value: reused.value as T, text: reused.text },
      diagnostics: [],
    };
  const decoded = decodeText(bytes);
  if (!decoded.ok) return refuse([invalid("is not UTF-8 text")]);
  const { text } = decoded;
  const json = parseJson(text);
  if (!json.ok)
    return refuse([
      invalid(`is not valid JSON (${json.message})`),
      ...(json.code === undefined
        ? []
        : [createDiagnostic("error", json.code, `${path} ${json.message}`, { path })]),
    ]);
  const parsed = options.parse(json.value);
  if (!parsed.success)
    return refuse([
      invalid(`does not match the ${options.what} format`),
      ...schemaDiagnostics(parsed.error.issues, json.value, path, options.what),
    ]);
  options.cache?.keep(path, bytes, { text, value: parsed.data }, stamp);
  return { ok: true, value: { path, value: parsed.data, text }, diagnostics: [] };
}

// --- internal ---

function unreadable(error: unknown, maxBytes: number): string {
  if (isSkillshelfError(error) && error.code === "file_too_large")
    return `is over the ${maxBytes}-byte limit`;
  if (isSkillshelfError(error) && error.code === "not_a_file") return "is not a regular file";
  return `cannot be read (${errnoCode(error) ?? String(error)})`;
}
