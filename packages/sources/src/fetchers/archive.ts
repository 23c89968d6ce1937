import { archiveFormat, DEFAULT_ARCHIVE_LIMITS, unpackArchive } from "../_archive.js";
import { download } from "../_download.js";
import { DEFAULT_FETCH_TIMEOUT_MS, type Fetcher } from "./_fetcher.js";
import { subfolderWithin } from "./_subfolder.js";

/** An `https://` `.tar.gz` or `.zip`: downloaded within its limits, every member checked as it is unpacked. */
export const ARCHIVE_FETCHER: Fetcher<"archive"> = {
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
  describe: (source) => `${source.url}${source.path === undefined ? "" : `//${source.path}`}`,
  within: subfolderWithin,
};
