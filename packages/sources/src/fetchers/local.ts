import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { copyTree, SkillshelfError } from "@skillshelf/core";
import { skipGit } from "../_git.js";
import type { Fetcher } from "./_fetcher.js";

/** A folder on this machine: copied, and digested as it is written. */
export const LOCAL_FETCHER: Fetcher<"local"> = {
  syntax: "a folder's path",
  // asked last: any text that is not a URL is a path
  parse: (text, baseDir) =>
    /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
      ? undefined
      : {
          ok: true,
          source: {
            type: "local",
            path: isAbsolute(text) ? resolve(text) : resolve(baseDir, text),
          },
        },
  fetch: async (source, into) => ({
    digest: copyTree(existingFolder(source.path), into.dir, { skip: skipGit }).digest,
  }),
  describe: (source) => source.path,
  origin: (source) => ({ kind: "local", path: source.path }),
  readInPlace: (source) => source.path,
  place: (source) => `local:${source.path}`,
  // the user's own folder: what it held is pinned by the lock's digest
  pinned: () => true,
  folderOnMachine: (source) => source.path,
  within: (source, path) => ({ ...source, path: join(source.path, ...path.split("/")) }),
};

function existingFolder(path: string): string {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new SkillshelfError("source_missing", `${path} is not a folder`, {
      path,
    });
  return path;
}
