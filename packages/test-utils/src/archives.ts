import { gzipSync } from "node:zlib";

/** One member of a test archive. */
export interface TarMember {
  readonly path: string;
  /** `pax` and `globalPax` are raw pax headers (`x`, `g`) holding `records`. */
  readonly type?: "file" | "directory" | "symlink" | "hardlink" | "fifo" | "pax" | "globalPax";
  readonly content?: string;
  readonly mode?: number;
  readonly target?: string;
  /** Write the path in a pax header instead of the ustar name field. */
  readonly pax?: boolean;
  /** `key=value` records of a `pax` or `globalPax` member, each framed with its length. */
  readonly records?: readonly string[];
  /** The header's 12-byte size field as written, instead of the octal size. */
  readonly sizeField?: string;
}

const TYPE_FLAG = {
  file: "0",
  directory: "5",
  symlink: "2",
  hardlink: "1",
  fifo: "6",
  pax: "x",
  globalPax: "g",
} as const;

/** A gzipped tar holding exactly `members`, hostile ones included. */
export function tarGz(members: readonly TarMember[]): Buffer {
  return gzipSync(tarBytes(members));
}

/** The uncompressed tar of `tarGz`: 512-byte blocks, each header on a block boundary. */
export function tarBytes(members: readonly TarMember[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const content =
      member.records === undefined
        ? Buffer.from(member.content ?? "")
        : Buffer.concat(
            member.records.map((record) => {
              const [key = "", ...value] = record.split("=");
              return paxRecord(key, value.join("="));
            }),
          );
    if (member.pax === true || Buffer.byteLength(member.path) > 100) {
      const record = paxRecord("path", member.path);
      blocks.push(header({ name: "PaxHeader", type: "x", size: record.length }), pad(record));
    }
    const type = member.type ?? "file";
    const hasData = type === "file" || type === "pax" || type === "globalPax";
    blocks.push(
      header({
        name: member.pax === true ? "ignored" : member.path.slice(0, 100),
        type: TYPE_FLAG[type],
        size: hasData ? content.length : 0,
        mode: member.mode ?? (type === "directory" ? 0o755 : 0o644),
        target: member.target ?? "",
        sizeField: member.sizeField,
      }),
      hasData ? pad(content) : Buffer.alloc(0),
    );
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** Write a correct checksum into the 512-byte header block starting at `offset`. */
export function fixChecksum(tar: Buffer, offset: number): void {
  const block = tar.subarray(offset, offset + 512);
  block.write("        ", 148);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148);
}

// --- internal ---

function header(fields: {
  name: string;
  type: string;
  size: number;
  mode?: number;
  target?: string;
  sizeField?: string | undefined;
}): Buffer {
  const block = Buffer.alloc(512);
  block.write(fields.name, 0, 100, "utf8");
  block.write(octal(fields.mode ?? 0o644, 7), 100);
  block.write(octal(0, 7), 108);
  block.write(octal(0, 7), 116);
  block.write(fields.sizeField ?? octal(fields.size, 11), 124, 12, "latin1");
  block.write(octal(1_700_000_000, 11), 136);
  block.write("        ", 148);
  block.write(fields.type, 156);
  block.write(fields.target ?? "", 157, 100, "utf8");
  block.write("ustar\u000000", 257);
  fixChecksum(block, 0);
  return block;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width, "0")}\u0000`;
}

function pad(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length)
    length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`);
}
