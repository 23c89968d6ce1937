import { resolve } from "node:path";
import { readRegularFile } from "@skillshelf/core";

/** `--signer`: a public key line, or the path of a `.pub` file holding one. */
export function signerKey(value: string, cwd: string): string {
  if (/^(ssh-|ecdsa-|sk-)/.test(value.trim())) return value.trim();
  return readRegularFile(resolve(cwd, value), 64 * 1024)
    .toString("utf8")
    .trim();
}
