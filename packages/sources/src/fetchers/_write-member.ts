import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { errnoCode, SkillshelfError } from "@skillshelf/core";

/** Write a fetched file at `path` (its folders made), never over one already there. */
export function writeMember(path: string, bytes: Uint8Array): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes, { flag: "wx", mode: 0o644 });
  } catch (error) {
    throw new SkillshelfError(
      "stage_write_failed",
      `could not write ${path} (${errnoCode(error) ?? String(error)})`,
      { path, cause: error },
    );
  }
}
