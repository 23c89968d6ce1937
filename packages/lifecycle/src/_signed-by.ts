import { SkillshelfError, sshKeyFingerprint } from "@skillshelf/core";
import { sshVerify } from "@skillshelf/sources";

/**
 * Check that `bytes`, published at `source` as `file`, carry a signature (`<file>.sig`) made by
 * `signer` (an SSH public key line): `signature_missing`, `signature_invalid`. The signer's
 * fingerprint (`ssh:SHA256:…`) when it does.
 */
export async function checkSignedBy(
  published: { readonly bytes: Buffer; readonly signature?: Buffer | undefined },
  signer: string,
  where: { readonly source: string; readonly file: string; readonly what: string },
): Promise<string> {
  const { source, file, what } = where;
  if (published.signature === undefined)
    throw new SkillshelfError(
      "signature_missing",
      `${what} ${source} has no signature beside it (${file}.sig), and a signer was named`,
      { details: { source } },
    );
  const checked = await sshVerify(published.bytes, published.signature);
  if ("invalid" in checked || checked.fingerprint !== sshKeyFingerprint(signer))
    throw new SkillshelfError(
      "signature_invalid",
      `${what} ${source} is not signed by the signer named`,
      { details: { source } },
    );
  return `ssh:${checked.fingerprint}`;
}
