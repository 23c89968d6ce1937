import { SkillshelfError, sha256 } from "@skillshelf/core";
import { archiveFormat, DEFAULT_ARCHIVE_LIMITS, unpackArchive } from "../_archive.js";
import { download } from "../_download.js";
import { type Fetcher, fetchSignal, httpOf } from "./_fetcher.js";
import { urlPlace } from "./_place.js";
import { subfolderOuter, subfolderWithin } from "./_subfolder.js";
import {
  fragmentFields,
  insecureUrl,
  invalidSource,
  refInvalid,
  splitFragment,
  urlWithCredentials,
  withSubfolder,
} from "./_syntax.js";

const ARCHIVE = /\.(tar\.gz|tgz|zip)$/i;

/** An `https://` `.tar.gz` or `.zip`: downloaded within its limits, every member checked as it is unpacked. */
export const ARCHIVE_FETCHER: Fetcher<"archive"> = {
  syntax: "an https URL of a .tar.gz, .tgz or .zip (#path=<subfolder>&sha256=<hex>)",
  parse: (text) => {
    if (!/^https?:\/\//i.test(text)) return undefined;
    const [url = "", fragment] = splitFragment(text);
    if (!URL.canParse(url) || !ARCHIVE.test(new URL(url).pathname)) return undefined;
    const parsed = new URL(url);
    const insecure = insecureUrl(parsed);
    if (insecure !== undefined) return insecure;
    const withCredentials = urlWithCredentials(parsed);
    if (withCredentials !== undefined) return withCredentials;
    const fields = fragmentFields(fragment, "path", ["ref", "path", "sha256"]);
    if (!fields.ok) return fields;
    if (fields.ref !== undefined)
      return refInvalid(
        `an archive takes no ref (#ref=${fields.ref}); name the archive of that version`,
      );
    const pin = fields.sha256?.toLowerCase();
    if (pin !== undefined && !/^[0-9a-f]{64}$/.test(pin))
      return invalidSource(`#sha256=${fields.sha256} is not a sha256 digest (64 hex digits)`);
    return withSubfolder(
      { type: "archive", url, ...(pin === undefined ? {} : { sha256: pin }) },
      fields.path,
    );
  },
  fetch: async (source, into, options) => {
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
    const bytes = await download(httpOf(options), source.url, {
      maxBytes: limits.maxDownloadBytes,
      signal: fetchSignal(options),
      credentials: options.headers,
    });
    // a pinned archive is checked on every download, before any of it is unpacked
    const observed = source.sha256 === undefined ? undefined : sha256(bytes);
    if (observed !== undefined && observed !== source.sha256)
      throw new SkillshelfError(
        "digest_mismatch",
        `${source.url} downloads as sha256 ${observed}, not the pinned ${source.sha256}`,
        { details: { url: source.url, expected: source.sha256, observed } },
      );
    await unpackArchive(bytes, into.dir, {
      ...limits,
      format: archiveFormat(source.url),
      subfolder: source.path,
    });
    return {};
  },
  origin: (source) => ({ kind: "archive", url: source.url }),
  place: (source) => urlPlace(source.url),
  upstreamUrl: (source) => (/^https?:\/\//i.test(source.url) ? source.url : undefined),
  pinned: (source) => source.sha256 !== undefined,
  describe: (source) =>
    `${source.url}${source.path === undefined ? "" : `//${source.path}`}${source.sha256 === undefined ? "" : `#sha256=${source.sha256}`}`,
  within: subfolderWithin,
  outer: subfolderOuter,
};
