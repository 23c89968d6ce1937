// Reading a tree's files as a hostile tree is read: no link followed, no FIFO opened, past a size only the head.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { createDiagnostic, type Diagnostic, errnoCode } from "@skillshelf/core";

/** The bytes a file is sniffed by (a NUL among them: binary), and read of a file past the limit. */
export const SNIFF_BYTES = 8192;

/**
 * Every file below `root` (links and `.git` left out), `/`-separated, and whether it is a FIFO,
 * socket or device rather than a regular file, as the folder listing says.
 */
export function filesBelow(
  root: string,
  diagnostics: Diagnostic[],
  prefix = "",
): { readonly path: string; readonly special: boolean }[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(join(root, prefix), { withFileTypes: true });
  } catch (error) {
    diagnostics.push(unreadable(join(root, prefix), error));
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isSymbolicLink() || entry.name === ".git") return [];
      return entry.isDirectory()
        ? filesBelow(root, diagnostics, path)
        : [{ path, special: !entry.isFile() }];
    });
}

/**
 * A file's bytes and executable bit, or `undefined` (with a diagnostic) when it is not read. Of a
 * file past `maxBytes` only the first bytes are read (`whole: false`), for the file rules, with a
 * diagnostic saying the rest was not.
 */
export function readFile(
  path: string,
  maxBytes: number,
  diagnostics: Diagnostic[],
): { content: Buffer; executable: boolean; whole: boolean } | undefined {
  let descriptor: number | undefined;
  try {
    // never blocks on a FIFO swapped in after the check, never follows a link
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const opened = fstatSync(descriptor);
    if (!opened.isFile()) {
      diagnostics.push(notRegular(path));
      return undefined;
    }
    const whole = withinLimit(path, opened.size, maxBytes, diagnostics);
    // not zeroed: only the bytes read are kept (`subarray(0, offset)` below)
    const content = Buffer.allocUnsafe(whole ? opened.size : SNIFF_BYTES);
    let offset = 0;
    while (offset < content.length) {
      const read = readSync(descriptor, content, offset, content.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return { content: content.subarray(0, offset), executable: (opened.mode & 0o111) !== 0, whole };
  } catch (error) {
    diagnostics.push(unreadable(path, error));
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

// a `.git` entry at any depth, as `filesBelow` leaves it out
export const IN_GIT: RegExp = /(?:^|\/)\.git(?:\/|$)/;

/** A file's bytes another reader handed over, cut to their head past `maxBytes` as `readFile` cuts them. */
export function handedOver(
  path: string,
  content: Buffer,
  executable: boolean,
  maxBytes: number,
  diagnostics: Diagnostic[],
): { content: Buffer; executable: boolean; whole: boolean } {
  const whole = withinLimit(path, content.length, maxBytes, diagnostics);
  return { content: whole ? content : content.subarray(0, SNIFF_BYTES), executable, whole };
}

/** Whether a file of `size` bytes is read whole; past `maxBytes`, a diagnostic says only its head is. */
function withinLimit(
  path: string,
  size: number,
  maxBytes: number,
  diagnostics: Diagnostic[],
): boolean {
  if (size <= maxBytes) return true;
  diagnostics.push(
    createDiagnostic(
      "warning",
      "audit_file_too_large",
      `${path} is ${size} bytes, over the ${maxBytes}-byte limit; only its first ${SNIFF_BYTES} bytes were read`,
      { path },
    ),
  );
  return false;
}

export function notRegular(path: string): Diagnostic {
  return createDiagnostic(
    "warning",
    "audit_file_special",
    `${path} is not a regular file; it was not read`,
    { path },
  );
}

function unreadable(path: string, error: unknown): Diagnostic {
  return createDiagnostic(
    "warning",
    "audit_file_unreadable",
    `${path} could not be read (${errnoCode(error) ?? String(error)})`,
    { path },
  );
}
