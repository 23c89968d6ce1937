import { createSha256 } from "./hash.js";

/**
 * The fingerprint OpenSSH shows for a public key line (`ssh-ed25519 AAAA… comment`):
 * `SHA256:` and the unpadded base64 of the sha256 of the key blob; `undefined` for a line that
 * is not a public key.
 */
export function sshKeyFingerprint(publicKey: string): string | undefined {
  const [, blob] = publicKey.trim().split(/\s+/);
  if (blob === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return undefined;
  const digest = createSha256().update(Buffer.from(blob, "base64")).digest("base64");
  return `SHA256:${digest.replace(/=+$/, "")}`;
}
