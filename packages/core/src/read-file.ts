import { closeSync, openSync, readFileSync, readSync } from "node:fs";

/**
 * Read a whole file whose size a stat just reported, skipping the second stat `readFileSync`
 * makes. If the file grew since, it falls back to reading it whole; if it shrank, the shorter
 * content is returned. Throws the usual `fs` errors.
 */
export function readFileOfSize(path: string, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size + 1);
  const fd = openSync(path, "r");
  let length = 0;
  try {
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
  } finally {
    closeSync(fd);
  }
  return length > size ? readFileSync(path) : buffer.subarray(0, length);
}
