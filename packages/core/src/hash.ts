import { createHash } from "node:crypto";

/** Lower-case hex sha256 of a string (as UTF-8) or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
