import { type FSWatcher, watch } from "node:fs";

/**
 * Folders watched for change, so a list can keep a skill whose folders nothing touched without
 * one `stat`. A folder whose watch could not be made (the system's limit of watches) or failed is
 * never quiet: its skill is looked at file by file, as without watches.
 */
export interface FolderWatch {
  /** True when every folder is watched and nothing happened in any since `settle`. */
  quiet(folders: readonly string[]): boolean;
  /** Watch `folders` from now on (those not yet watched), each counted as untouched. */
  settle(folders: readonly string[]): void;
  close(): void;
}

export function createFolderWatch(): FolderWatch {
  const watched = new Map<string, { readonly watcher: FSWatcher; touched: boolean }>();
  const forget = (folder: string) => {
    watched.get(folder)?.watcher.close();
    watched.delete(folder);
  };
  return {
    quiet: (folders) =>
      folders.every((folder) => {
        const state = watched.get(folder);
        return state !== undefined && !state.touched;
      }),
    settle: (folders) => {
      for (const folder of folders) {
        const state = watched.get(folder);
        if (state !== undefined) {
          state.touched = false;
          continue;
        }
        try {
          const watcher = watch(folder, { persistent: false }, () => {
            const current = watched.get(folder);
            if (current !== undefined) current.touched = true;
          });
          watcher.on("error", () => forget(folder));
          watched.set(folder, { watcher, touched: false });
        } catch {
          // no watch (a limit reached, the folder gone): the folder stays never quiet
        }
      }
    },
    close: () => {
      for (const folder of [...watched.keys()]) forget(folder);
    },
  };
}
