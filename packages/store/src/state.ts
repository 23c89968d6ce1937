import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  canonicalJson,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errnoCode,
  parseJsonDocument,
  readTextDocument,
  schemaDiagnostics,
} from "@skillshelf/core";
import { parseStateValue } from "./_state-schema.js";
import { packagesDir } from "./scopes.js";
import type { PackageScope, ScopeState, ScopeStateResult } from "./types.js";

/** The state of a scope with nothing installed. */
export const EMPTY_STATE: ScopeState = { version: 1, disabled: [], installed: {} };

const MAX_STATE_BYTES = 16 * 1024 * 1024;

/**
 * Read a scope's `packages/state.json` strictly. An absent file is an empty state. A file that is
 * a symlink or has other hard links (`state_unsafe`), cannot be read, is not JSON, or breaks the
 * schema in any way (`state_invalid`) makes the result not `ok`: every copy in that scope is then
 * invalid, and no writer touches the file until a person fixes it.
 */
export function readScopeState(environment: Environment, scope: PackageScope): ScopeStateResult {
  const path = join(packagesDir(environment, scope), "state.json");
  const refuse = (diagnostics: Diagnostic[]): ScopeStateResult => ({ ok: false, diagnostics });
  const read = (state: ScopeState, text: string | undefined): ScopeStateResult => ({
    ok: true,
    value: { path, state, text },
    diagnostics: [],
  });
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return refuse([stateInvalid(path, `cannot be read (${errnoCode(error) ?? String(error)})`)]);
  }
  if (stats === undefined) return read(EMPTY_STATE, undefined);
  if (!stats.isFile() || stats.nlink > 1)
    return refuse([
      createDiagnostic(
        "error",
        "state_unsafe",
        `${path} must be a plain file, not a symlink, folder or hard link`,
        { path },
      ),
    ]);
  const document = readTextDocument({
    path,
    realPath: path,
    maxBytes: MAX_STATE_BYTES,
    what: "package state",
  });
  if (!document.ok)
    return refuse([stateInvalid(path, document.diagnostics[0]?.message ?? "cannot be read")]);
  const { text } = document.value;
  const json = parseJsonDocument(text);
  if (!json.ok) return refuse([stateInvalid(path, `is not valid JSON (${json.message})`)]);
  const { value } = json;
  const parsed = parseStateValue(value);
  if (!parsed.success)
    return refuse([
      stateInvalid(path, "does not match the state format"),
      ...schemaDiagnostics(parsed.error.issues, value, path, "package state"),
    ]);
  return read(parsed.data, text);
}

/** The text a state is written as: canonical key order, ids sorted, two-space indent, final newline. */
export function serializeScopeState(state: ScopeState): string {
  const ordered = JSON.parse(canonicalJson({ ...state, disabled: [...state.disabled].sort() }));
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

// --- internal ---

function stateInvalid(path: string, problem: string): Diagnostic {
  return createDiagnostic(
    "error",
    "state_invalid",
    `${path} ${problem}; its copies are treated as invalid and nothing will overwrite it`,
    { path },
  );
}
