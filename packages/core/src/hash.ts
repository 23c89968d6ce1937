import type { Hash } from "node:crypto";

// `node:crypto` is loaded where something is hashed, not when this module is: a command that
// hashes nothing (a cached `list`) starts without it

/** A fresh sha256 hash. */
export function createSha256(): Hash {
  return process.getBuiltinModule("node:crypto").createHash("sha256");
}

/** Lower-case hex sha256 of a string (as UTF-8) or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createSha256().update(data).digest("hex");
}

/** `bytes` random bytes in lower-case hex: a name no other process picks. */
export function randomHex(bytes: number): string {
  return process.getBuiltinModule("node:crypto").randomBytes(bytes).toString("hex");
}
