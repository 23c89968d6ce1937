import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  codedWriteError,
  errnoCode,
  isProcessRunning,
  isSkillshelfError,
  processIdentity,
  removeTree,
  SkillshelfError,
} from "@skillshelf/core";

/**
 * A private staging folder `<tempDir>/<prefix><host>-<pid>-<start>-XXXXXX` and its idempotent
 * `release()`; the staged package goes into its `package` subfolder. The name says which process
 * made it, so the staging folders of a process that was killed (SIGKILL leaves them behind) are
 * removed by the next one that stages in the same folder, once that process is gone.
 */
export function stagingFolder(
  tempDir: string | undefined,
  prefix: string,
): { readonly dir: string; readonly release: () => void } {
  const parent = tempDir ?? tmpdir();
  removeOrphans(parent);
  const { host, pid, start } = processIdentity();
  const container = privateTempFolder(parent, `${prefix}${host}-${pid}-${start ?? "0"}-`);
  let released = false;
  return {
    dir: join(container, "package"),
    release: () => {
      if (released) return;
      released = true;
      removeTree(container);
    },
  };
}

/**
 * A new folder `<parent>/<prefix>XXXXXX` only this user can read (`mkdtemp`); a parent that is
 * missing or no folder — `TMPDIR` naming nothing — is `temp_folder_missing`, naming it.
 */
export function privateTempFolder(parent: string, prefix: string): string {
  try {
    return mkdtempSync(join(parent, prefix));
  } catch (error) {
    const code = errnoCode(error);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw codedFailure(error);
    throw new SkillshelfError(
      "temp_folder_missing",
      `the temporary folder ${parent} does not exist, so nothing can be staged there`,
      { path: parent, cause: error },
    );
  }
}

/**
 * A staging failure as a coded error: a full disk is `disk_full`, another file system failure
 * `stage_failed`, each naming the path.
 */
export function codedFailure(thrown: unknown): unknown {
  const error = codedWriteError(thrown);
  const code = errnoCode(error);
  if (isSkillshelfError(error) || code === undefined) return error;
  const path = (error as { path?: unknown }).path;
  return new SkillshelfError("stage_failed", `staging failed: ${(error as Error).message}`, {
    ...(typeof path === "string" ? { path } : {}),
    cause: error,
  });
}

/**
 * The staging folders in `tempDir` (default: the OS temporary folder) left by a process that is
 * gone, killed before it could remove them: the next staging there removes them.
 */
export function orphanedStaging(tempDir?: string): string[] {
  const parent = tempDir ?? tmpdir();
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const match = STAGING.exec(name);
    if (match === null) return [];
    const [, host = "", pid = "0", start = "0"] = match;
    const identity = { host, pid: Number(pid), start: start === "0" ? undefined : start };
    return isProcessRunning(identity) ? [] : [join(parent, name)];
  });
}

// --- internal ---

// `skillshelf-<what>-<host>-<pid>-<start>-XXXXXX`, as `stagingFolder` names them
const STAGING = /^skillshelf-[a-z]+-([0-9a-f]{8})-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;

/** Remove the staging folders in `parent` whose process is gone. */
function removeOrphans(parent: string): void {
  for (const path of orphanedStaging(parent)) removeTree(path);
}
