import { join } from "node:path";
import {
  canonicalJsonFile,
  canonicalJsonFileReusing,
  type Environment,
  type PackageScope,
} from "@skillshelf/core";
import { parseStateValue } from "./_state-schema.js";
import { readStrictFile } from "./_strict-file.js";
import { RECORD_DEPTH, type ScopeCache } from "./cache.js";
import { packagesDir } from "./scopes.js";
import type { ScopeState, ScopeStateResult } from "./types.js";

/** The state of a scope with nothing installed. */
export const EMPTY_STATE: ScopeState = { version: 1, disabled: [], installed: {} };

/** The largest `state.json` its reader takes; a writer refuses to write a larger one. */
export const MAX_STATE_BYTES = 16 * 1024 * 1024;

/**
 * Read a scope's `packages/state.json` strictly. An absent file is an empty state. A file that is
 * a symlink or has other hard links (`state_unsafe`), cannot be read, is not JSON, or breaks the
 * schema in any way (`state_invalid`) makes the result not `ok`: every copy in that scope is then
 * invalid, and no writer touches the file until a person fixes it. With a `cache`, a file whose
 * text is unchanged since the cache read it is not parsed again.
 */
export function readScopeState(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): ScopeStateResult {
  const read = readStrictFile({
    path: join(packagesDir(environment, scope), "state.json"),
    what: "package state",
    maxBytes: MAX_STATE_BYTES,
    empty: EMPTY_STATE,
    parse: parseStateValue,
    codes: { invalid: "state_invalid", unsafe: "state_unsafe" },
    consequence: "its copies are treated as invalid and nothing will overwrite it",
    cache,
  });
  if (!read.ok) return read;
  const { path, value, text } = read.value;
  return { ok: true, value: { path, state: value, text }, diagnostics: [] };
}

/**
 * Tell `cache` what a writer has just written to `path`: `text`, serialized from `state`, a valid
 * state read strictly whose `installed` was changed only through `withTableEntry`. Kept as the strict
 * reader would give it for that text, so the next read need not parse and check it all again.
 */
export function keepWrittenState(
  cache: ScopeCache | undefined,
  path: string,
  text: string,
  state: ScopeState,
): void {
  cache?.keep(path, Buffer.from(text), {
    text,
    value: { ...state, disabled: [...state.disabled].sort() },
  });
}

/**
 * The text a state is written as: canonical key order, ids sorted, two-space indent, final
 * newline. With `cache`, records written before are not serialised again.
 */
export function serializeScopeState(state: ScopeState, cache?: ScopeCache): string {
  const sorted = { ...state, disabled: [...state.disabled].sort() };
  return cache === undefined
    ? canonicalJsonFile(sorted)
    : canonicalJsonFileReusing(sorted, cache.fragments, RECORD_DEPTH);
}
