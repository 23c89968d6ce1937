import { existsSync, lstatSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { canonicalJsonFile, parseJson, readRegularFile, writeFileAtomic } from "@skillshelf/core";

/** A settings or record file of a few entries; anything past this is not one. */
const MAX_JSON_BYTES = 1024 * 1024;

/**
 * The JSON value in `path` (read as a regular file, no link followed, at most 1 MiB): `undefined`
 * when there is no file; `{ value: undefined }` when it does not read as JSON.
 */
export function readJsonFile(path: string): { readonly value: unknown } | undefined {
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  try {
    const parsed = parseJson(
      readRegularFile(path, MAX_JSON_BYTES, { noFollow: true }).toString("utf8"),
    );
    return { value: parsed.ok ? parsed.value : undefined };
  } catch {
    return { value: undefined };
  }
}

/**
 * Write `value` as canonical JSON to `path` (its folder made when missing), atomically and only
 * over the text that was there when it was read (`file_changed` when another process changed it).
 */
export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic({
    path,
    text: canonicalJsonFile(value),
    expected: existsSync(path) ? readFileSync(path, "utf8") : undefined,
  });
}
