import { statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  errnoCode,
  readRegularFile,
  realpathOrUndefined,
  resolveContained,
  SkillshelfError,
} from "@skillshelf/core";

// where a site keeps its index, newest convention first (the discovery RFC's, then the older)
const INDEX_FILES = [".well-known/agent-skills/index.json", ".well-known/skills/index.json"];
// a URL naming the index or its folder rather than the site's root
const WELL_KNOWN_TAIL = /\/\.well-known\/(agent-)?skills(\/(index\.json)?)?\/?$/;

/**
 * The root of the site a `file:` URL names (the folder, or its `.well-known` skills folder or
 * index), when that folder holds a `.well-known` skills index; else `undefined`. What `publish
 * site:DIR` writes is such a folder: a site before it is deployed, or on a shared drive.
 */
export function siteFolderOf(url: URL): string | undefined {
  if (url.protocol !== "file:" || url.search !== "" || url.host !== "") return undefined;
  const root = fileURLToPath(url).replace(WELL_KNOWN_TAIL, "").replace(/\/+$/, "") || "/";
  if (statSync(root, { throwIfNoEntry: false })?.isDirectory() !== true) return undefined;
  return INDEX_FILES.some((file) => statSync(join(root, file), { throwIfNoEntry: false })?.isFile())
    ? root
    : undefined;
}

/**
 * The bytes of the file `url` names inside the site folder `root`, as a download of it would
 * give them: a file that is missing answers as a 404 would (`download_failed`, status 404), one
 * whose real path leaves the site (a link out, `..`) is refused the same way, never read, and one
 * past `maxBytes` is `file_too_large`.
 */
export function readSiteFile(url: string, root: string, maxBytes: number): Buffer {
  const path = fileURLToPath(url);
  const anchor = realpathOrUndefined(root);
  const contained = anchor === undefined ? undefined : resolveContained(path, anchor);
  if (contained?.status !== "inside") throw notServed(url);
  try {
    return readRegularFile(contained.real, maxBytes);
  } catch (error) {
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") throw notServed(url);
    throw error;
  }
}

// --- internal ---

function notServed(url: string): SkillshelfError {
  return new SkillshelfError("download_failed", `${url} is not a file of the site's folder`, {
    details: { url, status: 404 },
  });
}
