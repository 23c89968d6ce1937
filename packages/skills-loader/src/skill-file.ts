import type { Stats } from "node:fs";
import { basename, dirname } from "node:path";
import type { Diagnostic, OpenedFile } from "@skillshelf/core";
import { readSkillFile } from "./_read-skill.js";
import type { SkillCache } from "./cache.js";

/** One skill folder's `SKILL.md`, as `readSkillFolderFile` reads it. */
export interface SkillFolderFile {
  /** Its frontmatter, when the file makes a skill; `undefined` when an error finding refuses it. */
  readonly frontmatter: Readonly<Record<string, unknown>> | undefined;
  /**
   * The name the loader gives the skill, when the file makes one: its frontmatter's, or its
   * folder's when that one cannot be typed as `/skill <name>` (`skill_name_unaddressable_fallback`).
   */
  readonly name: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Read the `SKILL.md` at `path` (`realPath` once every link is resolved) as `loadSkills` reads
 * a skill folder's file under a package root: the whole file, its fields checked against its
 * folder's name. Through `cache`, so a load of that folder with the same cache reads nothing
 * while the file is unchanged. `opened`: the file, already opened by the caller (who closes it).
 */
export function readSkillFolderFile(
  file: {
    readonly path: string;
    readonly realPath: string;
    readonly opened?: (OpenedFile & { readonly stats: Stats }) | undefined;
  },
  cache?: SkillCache,
): SkillFolderFile {
  const baseDir = dirname(file.path);
  const record = readSkillFile(
    {
      path: file.path,
      realPath: file.realPath,
      loose: false,
      unusualName: false,
      baseDir,
      subject: basename(baseDir),
      stats: file.opened?.stats,
      opened: file.opened,
    },
    true,
    cache,
  );
  return {
    frontmatter: record.fields?.frontmatter,
    name: record.fields?.name,
    diagnostics: record.diagnostics,
  };
}
