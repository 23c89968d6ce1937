import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { canonicalJsonFile, writeFileAtomic } from "@skillshelf/core";

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
