import { archiveFormat, DEFAULT_ARCHIVE_LIMITS, unpackArchive } from "../_archive.js";
import { download } from "../_download.js";
import { DEFAULT_FETCH_TIMEOUT_MS, type Fetcher } from "./_fetcher.js";
import { subfolderWithin } from "./_subfolder.js";
import { fragmentFields, refInvalid, splitFragment, withSubfolder } from "./_syntax.js";

const ARCHIVE = /\.(tar\.gz|tgz|zip)$/i;

/** An `https://` `.tar.gz` or `.zip`: downloaded within its limits, every member checked as it is unpacked. */
export const ARCHIVE_FETCHER: Fetcher<"archive"> = {
  syntax: "an http(s) URL of a .tar.gz, .tgz or .zip (#path=<subfolder>)",
  parse: (text) => {
    if (!/^https?:\/\//i.test(text)) return undefined;
    const [url = "", fragment] = splitFragment(text);
    if (!URL.canParse(url) || !ARCHIVE.test(new URL(url).pathname)) return undefined;
    const fields = fragmentFields(fragment, "path");
    if (!fields.ok) return fields;
    if (fields.ref !== undefined)
      return refInvalid(
        `an archive takes no ref (#ref=${fields.ref}); name the archive of that version`,
      );
    return withSubfolder({ type: "archive", url }, fields.path);
  },
  fetch: async (source, into, options) => {
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
    const signals = [
      AbortSignal.timeout(options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS),
      ...(options.signal === undefined ? [] : [options.signal]),
    ];
    const bytes = await download(source.url, limits.maxDownloadBytes, AbortSignal.any(signals));
    await unpackArchive(bytes, into.dir, {
      ...limits,
      format: archiveFormat(source.url),
      subfolder: source.path,
    });
    return {};
  },
  origin: (source) => ({ kind: "archive", url: source.url }),
  describe: (source) => `${source.url}${source.path === undefined ? "" : `//${source.path}`}`,
  within: subfolderWithin,
};
