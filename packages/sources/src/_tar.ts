import { type Code, SkillshelfError } from "@skillshelf/core";
import { extract, type Header } from "tar-stream";

/** One member of an archive, as read (not yet checked). */
export interface ArchiveEntry {
  readonly path: string;
  readonly type: "file" | "directory" | "symlink";
  readonly executable: boolean;
  /** A symlink's target. */
  readonly target: string;
  readonly data: Uint8Array;
}

/**
 * Read an uncompressed tar archive with `tar-stream` (ustar, pax and GNU long names). Regular
 * files, folders and symlinks come back; a hard link, device, FIFO or any other member type is
 * `archive_entry_refused`, more than `maxEntries` members `archive_too_many_entries`, an archive
 * that ends inside a member `archive_truncated`, and any header the parser refuses
 * `archive_invalid`, naming the last member read before it. The whole archive is in memory, so
 * reading always ends.
 */
export function readTar(archive: Uint8Array, maxEntries: number): Promise<ArchiveEntry[]> {
  return new Promise((resolvePromise, reject) => {
    const entries: ArchiveEntry[] = [];
    const reader = extract();
    const lastRead = () => {
      const last = entries.at(-1)?.path;
      return last === undefined ? "the first member" : `the member after ${JSON.stringify(last)}`;
    };
    let settled = false;
    // the archive is all in memory, so a reader that goes quiet will never go on: whatever a
    // header makes the parser wait for, reading ends
    let quiet: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(quiet);
      quiet = setTimeout(
        () =>
          fail(refusal("archive_invalid", `the tar reader stopped at ${lastRead()}`, lastRead())),
        STALL_MS,
      );
    };
    const fail = (error: unknown) => {
      clearTimeout(quiet);
      if (settled) return;
      settled = true;
      reader.destroy();
      reject(error);
    };
    reader.on("entry", (header: Header, stream, next) => {
      watch();
      const kind = MEMBER_KINDS[header.type ?? "file"];
      const problem = headerProblem(header, kind, entries.length, maxEntries);
      if (problem !== undefined || kind === undefined) return fail(problem);
      const chunks: Buffer[] = [];
      stream.on("data", (chunk) => chunks.push(chunk as Buffer));
      stream.on("error", fail);
      stream.on("end", () => {
        entries.push({
          path: header.name,
          type: kind,
          executable: ((header.mode ?? 0) & 0o100) !== 0,
          target: header.linkname ?? "",
          data: kind === "file" ? Buffer.concat(chunks) : new Uint8Array(),
        });
        next();
      });
    });
    reader.on("finish", () => {
      clearTimeout(quiet);
      if (settled) return;
      settled = true;
      resolvePromise(entries);
    });
    // a stream that closes without finishing or failing still settles
    reader.on("close", () =>
      fail(refusal("archive_truncated", `the archive ends inside ${lastRead()}`, lastRead())),
    );
    reader.on("error", (error: Error) => {
      const truncated = /unexpected end/i.test(error.message);
      fail(
        refusal(
          truncated ? "archive_truncated" : "archive_invalid",
          truncated
            ? `the archive ends inside ${lastRead()}`
            : `${lastRead()} has a header the tar reader refuses (${error.message})`,
          lastRead(),
        ),
      );
    });
    watch();
    reader.end(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
  });
}

/** A refused archive, naming the member. */
export function refusal(code: Code, message: string, entry: string): SkillshelfError {
  return new SkillshelfError(code, message, {
    details: { entry },
  });
}

// --- internal ---

/**
 * Why a member cannot be read, if it cannot: a type packages do not hold, one member too many, or
 * a header tar-stream would wait on forever (a size it could not read, a folder or link claiming
 * content).
 */
function headerProblem(
  header: Header,
  kind: ArchiveEntry["type"] | undefined,
  count: number,
  maxEntries: number,
): SkillshelfError | undefined {
  const name = JSON.stringify(header.name);
  if (kind === undefined)
    return refusal(
      "archive_entry_refused",
      `${name} is a ${header.type}; packages hold only files, folders and symlinks`,
      header.name,
    );
  if (count >= maxEntries)
    return refusal(
      "archive_too_many_entries",
      `the archive has more than ${maxEntries} members`,
      header.name,
    );
  const size = header.size ?? Number.NaN;
  if (!Number.isSafeInteger(size) || size < 0)
    return refusal(
      "archive_invalid",
      `${name} has a size that is not a non-negative number`,
      header.name,
    );
  if (kind !== "file" && size > 0)
    return refusal(
      "archive_invalid",
      `${name} is a ${kind} whose header gives it ${size} bytes`,
      header.name,
    );
  return undefined;
}

// longer than any in-memory member takes, however loaded the machine
const STALL_MS = 10_000;

const MEMBER_KINDS: Readonly<Record<string, ArchiveEntry["type"]>> = {
  file: "file",
  "contiguous-file": "file",
  directory: "directory",
  symlink: "symlink",
};
