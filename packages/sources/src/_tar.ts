import { type Code, SkillshelfError } from "@skillshelf/core";

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
 * headers are checked and skipped). Regular files, folders and symlinks come back; a hard link,
 * device, FIFO or any other member type is `archive_entry_refused`, more than `maxEntries`
 * members `archive_too_many_entries`, a member running past the end `archive_truncated`, and any
 * malformed header — a bad checksum, a number field that is not a non-negative integer, a pax
 * record that does not parse — `archive_invalid`, naming the member. Every step moves forward by
 * at least one block, so parsing ends after at most `archive.length / 512` steps.
 */
export function parseTar(archive: Uint8Array, maxEntries: number): TarEntry[] {
  const buffer = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const entries: TarEntry[] = [];
  let offset = 0;
  let pending: PaxFields = {};
  while (offset + BLOCK <= buffer.length) {
    const header = buffer.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const where = describe(header, pending, offset);
    checkChecksum(header, where);
    const type = String.fromCharCode(header[156] ?? 0);
    const size = pending.size ?? readNumber(header.subarray(124, 136), "size", where);
    const start = offset + BLOCK;
    if (size > buffer.length - start)
      refuse("archive_truncated", `${where} runs past the end of the archive`, where);
    const data = buffer.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === "x") {
      pending = { ...pending, ...paxFields(data, where) };
      continue;
    }
    if (type === "g") {
      paxFields(data, where);
      continue;
    }
    if (type === "L" || type === "K") {
      const text = data.toString("utf8").replace(/\0+$/, "");
      if (text === "" || text.includes("\0"))
        refuse("archive_invalid", `${where} has a malformed GNU long name`, where);
      pending = type === "L" ? { ...pending, path: text } : { ...pending, target: text };
      continue;
    }
    const path = pending.path ?? ustarPath(header);
    const target = pending.target ?? readString(header.subarray(157, 257));
    pending = {};
    const kind = MEMBER_KINDS[type];
    if (kind === undefined)
      refuse(
        "archive_entry_refused",
        `${JSON.stringify(path)} is a ${REFUSED_TYPES[type] ?? `member of type ${JSON.stringify(type)}`}; packages hold only files, folders and symlinks`,
        path,
      );
    if (entries.length >= maxEntries)
      refuse("archive_too_many_entries", `the archive has more than ${maxEntries} members`, path);
    const mode = readNumber(header.subarray(100, 108), "mode", where);
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

type PaxFields = { path?: string; target?: string; size?: number };

const MEMBER_KINDS: Readonly<Record<string, TarEntry["type"]>> = {
  "0": "file",
  "\0": "file",
  "7": "file",
  "5": "directory",
  "2": "symlink",
};

const REFUSED_TYPES: Readonly<Record<string, string>> = {
  "1": "hard link",
  "3": "device",
  "4": "device",
  "6": "FIFO",
};

function refuse(code: Code, message: string, entry: string): never {
  throw new SkillshelfError(code, message, {
    hint: "ask the publisher for a plain archive of the package's files",
    details: { entry },
  });
}

/** How a header is named in errors: its path if one can be read, else its position. */
function describe(header: Uint8Array, pending: PaxFields, offset: number): string {
  const path = pending.path ?? ustarPath(header);
  return `the member ${path === "" ? "with no name" : JSON.stringify(path)} at byte ${offset}`;
}

function readString(field: Uint8Array): string {
  const end = field.indexOf(0);
  return Buffer.from(end === -1 ? field : field.subarray(0, end)).toString("utf8");
}

/** A numeric header field: octal digits padded with spaces or NULs, or base-256; never negative. */
function readNumber(field: Uint8Array, name: string, where: string): number {
  const first = field[0] ?? 0;
  if (first === 0x80) {
    let value = 0;
    for (const byte of field.subarray(1)) value = value * 256 + byte;
    if (Number.isSafeInteger(value)) return value;
  } else if ((first & 0x80) === 0) {
    const text = Buffer.from(field).toString("latin1");
    const match = /^ *([0-7]*)[ \0]*$/.exec(text);
    if (match !== null) {
      const value = match[1] === "" ? 0 : Number.parseInt(match[1] as string, 8);
      if (Number.isSafeInteger(value)) return value;
    }
  }
  return refuse(
    "archive_invalid",
    `${where} has a header ${name} that is not a non-negative number`,
    where,
  );
}

function ustarPath(header: Uint8Array): string {
  const name = readString(header.subarray(0, 100));
  const isUstar = readString(header.subarray(257, 262)) === "ustar";
  const prefix = isUstar ? readString(header.subarray(345, 500)) : "";
  return prefix === "" ? name : `${prefix}/${name}`;
}

function checkChecksum(header: Uint8Array, where: string): void {
  let unsigned = 0;
  let signed = 0;
  for (let index = 0; index < BLOCK; index++) {
    const byte = index >= 148 && index < 156 ? 32 : (header[index] ?? 0);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  const recorded = readNumber(header.subarray(148, 156), "checksum", where);
  if (recorded !== unsigned && recorded !== signed)
    refuse(
      "archive_invalid",
      `${where} has a header checksum that does not match; the archive is damaged or not a tar.gz`,
      where,
    );
}

/**
 * pax records `<length> <key>=<value>\n`, each checked: the length counts the whole record and
 * stays inside the header, the record ends in a newline, `size` is a non-negative integer, a path
 * or link target is non-empty and free of NUL. The path, link target and size are kept.
 */
function paxFields(data: Uint8Array, where: string): PaxFields {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const fields: PaxFields = {};
  const malformed = (problem: string): never =>
    refuse("archive_invalid", `${where} has a malformed pax header: ${problem}`, where);
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    const lengthText = space === -1 ? "" : bytes.toString("latin1", offset, space);
    if (!/^[1-9][0-9]{0,9}$/.test(lengthText)) malformed("a record length is not a number");
    const length = Number(lengthText);
    const end = offset + length;
    if (end > bytes.length || end <= space + 1 || bytes[end - 1] !== 0x0a)
      malformed("a record's length does not match its text");
    const record = bytes.toString("utf8", space + 1, end - 1);
    const equals = record.indexOf("=");
    if (equals <= 0) malformed("a record has no key");
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key === "size") {
      if (!/^[0-9]{1,15}$/.test(value)) malformed(`size is ${JSON.stringify(value)}`);
      fields.size = Number(value);
    } else if (key === "path" || key === "linkpath") {
      if (value === "" || value.includes("\0")) malformed(`${key} is empty or holds NUL`);
      if (key === "path") fields.path = value;
      else fields.target = value;
    }
    offset = end;
  }
  return fields;
}
