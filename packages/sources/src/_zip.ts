import { fromBuffer, type ZipFile } from "yauzl";
import { type ArchiveEntry, refusal } from "./_tar.js";

/**
 * Read a `.zip` with `yauzl`: files, folders and symlinks (from the Unix mode a zip made on
 * Unix records; a zip made elsewhere holds files and folders). Checked from the central directory
 * before any member is inflated: more than `maxEntries` members is `archive_too_many_entries`,
 * more than `maxUnpackedBytes` declared `archive_too_large` (yauzl checks each member inflates to
 * its declared size); an encrypted member, a device or FIFO is `archive_entry_refused`, a path
 * yauzl refuses (absolute, `..`, backslash) too; anything else it cannot read `archive_invalid`.
 */
export function readZip(
  archive: Uint8Array,
  limits: { readonly maxEntries: number; readonly maxUnpackedBytes: number },
): Promise<ArchiveEntry[]> {
  return new Promise((resolvePromise, reject) => {
    const buffer = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
    const options = { lazyEntries: true, strictFileNames: true, validateEntrySizes: true };
    fromBuffer(buffer, options, (error, zip) => {
      if (error !== null) return reject(zipFailure(error, "the archive"));
      if (zip.entryCount > limits.maxEntries)
        return reject(
          refusal(
            "archive_too_many_entries",
            `the archive has more than ${limits.maxEntries} members`,
            "the archive",
          ),
        );
      readEntries(zip, limits.maxUnpackedBytes).then(resolvePromise, reject);
    });
  });
}

// --- internal ---

const S_IFMT = 0o170000;

/** The member type a Unix mode names; a zip made elsewhere has none, and says folder by a final `/`. */
function memberType(mode: number, name: string): ArchiveEntry["type"] | undefined {
  switch (mode & S_IFMT) {
    case 0:
      return name.endsWith("/") ? "directory" : "file";
    case 0o100000:
      return "file";
    case 0o040000:
      return "directory";
    case 0o120000:
      return "symlink";
    default:
      return undefined;
  }
}

function readEntries(zip: ZipFile, maxUnpackedBytes: number): Promise<ArchiveEntry[]> {
  return new Promise((resolvePromise, reject) => {
    const entries: ArchiveEntry[] = [];
    let declared = 0;
    const fail = (error: unknown) => {
      zip.close();
      reject(error);
    };
    zip.on("error", (error: Error) => fail(zipFailure(error, entries.at(-1)?.path)));
    zip.on("end", () => resolvePromise(entries));
    zip.on("entry", (entry) => {
      const name: string = entry.fileName;
      const mode = entry.externalFileAttributes >>> 16;
      const type = memberType(mode, name);
      if (type === undefined)
        return fail(
          refusal(
            "archive_entry_refused",
            `${JSON.stringify(name)} is neither a file, a folder nor a symlink`,
            name,
          ),
        );
      if (entry.isEncrypted())
        return fail(refusal("archive_entry_refused", `${JSON.stringify(name)} is encrypted`, name));
      declared += entry.uncompressedSize;
      if (declared > maxUnpackedBytes)
        return fail(
          refusal(
            "archive_too_large",
            `the archive is too large: it unpacks to more than ${maxUnpackedBytes} bytes`,
            name,
          ),
        );
      const path = name.replace(/\/$/, "");
      if (type === "directory") {
        entries.push({ path, type, executable: false, target: "", data: new Uint8Array() });
        return zip.readEntry();
      }
      zip.openReadStream(entry, (error, stream) => {
        if (error !== null) return fail(zipFailure(error, name));
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", (streamError) => fail(zipFailure(streamError, name)));
        stream.on("end", () => {
          const data = Buffer.concat(chunks);
          entries.push({
            path,
            type,
            executable: (mode & 0o100) !== 0,
            target: type === "symlink" ? data.toString("utf8") : "",
            data: type === "file" ? data : new Uint8Array(),
          });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

function zipFailure(error: Error, entry: string | undefined): Error {
  const where = entry ?? "the archive";
  // yauzl's own checks of member names: what could write outside the package
  if (/absolute path|invalid relative path|invalid characters/i.test(error.message))
    return refusal(
      "archive_entry_refused",
      `the archive member ${error.message}; nothing was unpacked`,
      where,
    );
  return refusal(
    "archive_invalid",
    `the archive is not a zip this reader can read (${error.message})`,
    where,
  );
}
