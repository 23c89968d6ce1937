import { lstatSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readRegularFile, SkillshelfError } from "@skillshelf/core";
import { download } from "./_download.js";
import { fetchSignal, httpOf } from "./fetchers/_fetcher.js";
import { parseSourceSpec } from "./source-url.js";
import { MAX_SIGNATURE_BYTES } from "./ssh-signature.js";
import { fetchSource, type StageOptions } from "./stage.js";

/**
 * A file published with the SSH signature beside it (`<file>.sig`), wherever it is: an http(s)
 * URL of the file itself, a file on this machine, or any source (a git repository, an archive, an
 * OCI artifact, a folder) holding `name` at its top. Its bytes, at most `maxBytes`, and its
 * signature when one is there. Fetched through the same client, proxies, credentials and mirrors
 * as every source.
 */
export async function fetchPublishedFile(
  location: string,
  name: string,
  options: StageOptions & { readonly cwd: string; readonly maxBytes: number },
): Promise<{ readonly bytes: Buffer; readonly signature?: Buffer | undefined }> {
  const { maxBytes } = options;
  if (/^https?:\/\//i.test(location) && !location.endsWith("/")) {
    const get = (url: string, most: number) =>
      download(httpOf(options), url, {
        maxBytes: most,
        signal: fetchSignal(options),
        credentials: options.headers,
      });
    const bytes = await get(location, maxBytes);
    const signature = await get(`${location}.sig`, MAX_SIGNATURE_BYTES).catch((error: unknown) => {
      // no signature beside it is an unsigned file; anything else is a failure to say
      if (error instanceof SkillshelfError && error.details?.status === 404) return undefined;
      throw error;
    });
    return { bytes, ...(signature === undefined ? {} : { signature }) };
  }
  const path = isAbsolute(location) ? location : resolve(options.cwd, location);
  if (lstatSync(path, { throwIfNoEntry: false })?.isFile() === true)
    return readPair(path, maxBytes);
  const parsed = parseSourceSpec(location, options.cwd);
  if (!parsed.ok)
    throw new SkillshelfError("source_invalid", `${location}: ${parsed.problem}`, {
      details: { source: location },
    });
  const fetched = await fetchSource(parsed.source, options);
  try {
    return readPair(join(fetched.dir, name), maxBytes);
  } finally {
    fetched.release();
  }
}

// --- internal ---

function readPair(
  path: string,
  maxBytes: number,
): { readonly bytes: Buffer; readonly signature?: Buffer | undefined } {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, maxBytes);
  } catch (error) {
    throw new SkillshelfError("source_subfolder_missing", `${path} cannot be read`, {
      path,
      cause: error,
    });
  }
  const signed = `${path}.sig`;
  const signature =
    lstatSync(signed, { throwIfNoEntry: false })?.isFile() === true
      ? readRegularFile(signed, MAX_SIGNATURE_BYTES)
      : undefined;
  return { bytes, ...(signature === undefined ? {} : { signature }) };
}
