import { SkillshelfError } from "@skillshelf/core";

/** One member of a tar archive, as read (not yet checked). */
export interface TarEntry {
  readonly path: string;
  readonly type: "file" | "directory" | "symlink";
  readonly executable: boolean;
  /** A symlink's target. */
  readonly target: string;
  readonly data: Uint8Array;
}

const BLOCK = 512;

/**
 * Parse an uncompressed tar archive (ustar, with pax `x` and GNU `L`/`K` long names; pax `g`
 * headers are skipped). Regular files, folders and symlinks come back; a hard link, device, FIFO
 * or any other member type, a bad header checksum, a truncated archive or more than `maxEntries`
 * members is refused with a `SkillshelfError` before anything is written.
 */
export function parseTar(archive: Uint8Array, maxEntries: number): TarEntry[] {
  const buffer = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const entries: TarEntry[] = [];
  let offset = 0;
  let pending: { path?: string; target?: string; size?: number } = {};
  while (offset + BLOCK <= buffer.length) {
    const header = buffer.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    checkChecksum(header);
    const type = String.fromCharCode(header[156] ?? 0);
    const size = pending.size ?? readNumber(header.subarray(124, 136));
    const start = offset + BLOCK;
    const end = start + size;
    if (end > buffer.length)
      refuse("archive_truncated", "the archive ends in the middle of a member");
    const data = buffer.subarray(start, end);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === "x") {
      pending = { ...pending, ...paxFields(data) };
      continue;
    }
    if (type === "g") continue;
    if (type === "L" || type === "K") {
      const text = data.toString("utf8").replace(/\0.*$/s, "");
      pending = type === "L" ? { ...pending, path: text } : { ...pending, target: text };
      continue;
    }
    const path = pending.path ?? ustarPath(header);
    const target = pending.target ?? readString(header.subarray(157, 257));
    pending = {};
    const kind =
      type === "0" || type === "\0" || type === "7"
        ? "file"
        : type === "5"
          ? "directory"
          : type === "2"
            ? "symlink"
            : undefined;
    if (kind === undefined)
      refuse(
        "archive_entry_refused",
        `${path} is a ${type === "1" ? "hard link" : type === "3" || type === "4" ? "device" : type === "6" ? "FIFO" : `member of type ${JSON.stringify(type)}`}; packages hold only files, folders and symlinks`,
      );
    if (entries.length >= maxEntries)
      refuse("archive_too_many_entries", `the archive has more than ${maxEntries} members`);
    const mode = readNumber(header.subarray(100, 108));
    entries.push({
      path,
      type: kind,
      executable: (mode & 0o100) !== 0,
      target,
      data: kind === "file" ? data : new Uint8Array(),
    });
  }
  return entries;
}

// --- internal ---

function refuse(code: string, message: string): never {
  throw new SkillshelfError(code, message, {
    hint: "ask the publisher for a plain archive of the package's files",
  });
}

function readString(field: Uint8Array): string {
  const end = field.indexOf(0);
  return Buffer.from(end === -1 ? field : field.subarray(0, end)).toString("utf8");
}

function readNumber(field: Uint8Array): number {
  if (((field[0] ?? 0) & 0x80) !== 0) {
    // base-256, for sizes past the octal field's range
    let value = 0;
    for (const [index, byte] of field.entries())
      value = value * 256 + (index === 0 ? byte & 0x7f : byte);
    return value;
  }
  const text = readString(field).trim();
  const value = text === "" ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0)
    refuse("archive_invalid", `a tar header holds the number ${JSON.stringify(text)}`);
  return value;
}

function ustarPath(header: Uint8Array): string {
  const name = readString(header.subarray(0, 100));
  const isUstar = readString(header.subarray(257, 262)) === "ustar";
  const prefix = isUstar ? readString(header.subarray(345, 500)) : "";
  return prefix === "" ? name : `${prefix}/${name}`;
}

function checkChecksum(header: Uint8Array): void {
  let sum = 0;
  for (let index = 0; index < BLOCK; index++)
    sum += index >= 148 && index < 156 ? 32 : (header[index] ?? 0);
  if (sum !== readNumber(header.subarray(148, 156)))
    refuse(
      "archive_invalid",
      "a tar header's checksum does not match; the archive is damaged or not a tar.gz",
    );
}

/** pax records `<length> <key>=<value>\n` (length in bytes): the path, link target and size overrides. */
function paxFields(data: Uint8Array): { path?: string; target?: string; size?: number } {
  const bytes = Buffer.from(data);
  const fields: { path?: string; target?: string; size?: number } = {};
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    const length = Number.parseInt(bytes.subarray(offset, space).toString("ascii"), 10);
    if (space === -1 || !Number.isSafeInteger(length) || length <= 0)
      refuse("archive_invalid", "a pax header is malformed");
    const record = bytes.subarray(space + 1, offset + length - 1).toString("utf8");
    offset += length;
    const equals = record.indexOf("=");
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key === "path") fields.path = value;
    else if (key === "linkpath") fields.target = value;
    else if (key === "size") fields.size = Number.parseInt(value, 10);
  }
  return fields;
}
