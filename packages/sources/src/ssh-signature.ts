// Detached SSH signatures (SSHSIG), made and checked by OpenSSH's ssh-keygen as git does for
// signed commits: a file signed by a key is verified by `ssh-keygen -Y verify` as by us.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeTree, SkillshelfError } from "@skillshelf/core";
import { privateTempFolder } from "./_failure.js";

/** The namespace every Skillshelf signature is made in (`ssh-keygen -n`), so no other signature of the same key counts. */
export const SIGNATURE_NAMESPACE: "skillshelf" = "skillshelf";

/** The largest signature file read: an armored SSHSIG is well under 4 KiB. */
export const MAX_SIGNATURE_BYTES: number = 16 * 1024;

/**
 * Sign `message` with `key` (a private key file, or a public key file whose private half the
 * running ssh-agent holds): the armored signature. Throws `signature_failed` with what ssh-keygen
 * said when it cannot sign (no such key, a passphrase with no agent).
 */
export async function sshSign(
  message: Uint8Array,
  key: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string> {
  const run = await sshKeygen(["-Y", "sign", "-f", key, "-n", SIGNATURE_NAMESPACE], message, env);
  if (run.status !== 0 || !run.stdout.includes("BEGIN SSH SIGNATURE"))
    throw new SkillshelfError(
      "signature_failed",
      `ssh-keygen could not sign with ${key}: ${firstLine(run.stderr)}`,
      {
        path: key,
        details: { key },
      },
    );
  return run.stdout;
}

/**
 * Check that `signature` (armored SSHSIG) signs `message` in `namespace` (Skillshelf's, or `git`
 * for a signed commit): the signing key's fingerprint (`SHA256:…`), or why it does not (a garbage
 * signature, other bytes, another namespace). Which keys count is the caller's to decide (a
 * policy names them).
 */
export async function sshVerify(
  message: Uint8Array,
  signature: Uint8Array | string,
  tempDir: string = tmpdir(),
  namespace: string = SIGNATURE_NAMESPACE,
): Promise<{ readonly fingerprint: string } | { readonly invalid: string }> {
  const dir = privateTempFolder(tempDir, "skillshelf-sig-");
  try {
    const file = join(dir, "signature.sig");
    writeFileSync(file, signature, { mode: 0o600 });
    const run = await sshKeygen(["-Y", "check-novalidate", "-n", namespace, "-s", file], message, {
      PATH: process.env.PATH,
    });
    const good = /^Good "[^"]*" signature with \S+ key (SHA256:[A-Za-z0-9+/]+)/m.exec(run.stdout);
    return run.status === 0 && good !== null
      ? { fingerprint: good[1] as string }
      : { invalid: firstLine(run.stderr || run.stdout) || "ssh-keygen refused it" };
  } finally {
    removeTree(dir);
  }
}

/**
 * The signer of `message` (`ssh:SHA256:…`) when `signature` signs it in `namespace`; otherwise
 * `signature_invalid`, saying that `what` (a URL, an artifact, a commit) does not verify, with
 * `details`. What a fetch records of a signature that came with what it fetched.
 */
export async function verifiedSigner(
  message: Uint8Array,
  signature: Uint8Array | string,
  what: { readonly name: string; readonly details: Readonly<Record<string, unknown>> },
  options: { readonly tempDir?: string | undefined; readonly namespace?: string } = {},
): Promise<string> {
  const checked = await sshVerify(message, signature, options.tempDir, options.namespace);
  if ("invalid" in checked)
    throw new SkillshelfError(
      "signature_invalid",
      `the signature of ${what.name} does not verify: ${checked.invalid}`,
      { details: what.details },
    );
  return `ssh:${checked.fingerprint}`;
}

// --- internal ---

async function sshKeygen(
  args: readonly string[],
  input: Uint8Array,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ readonly status: number; readonly stdout: string; readonly stderr: string }> {
  // loaded when a signature is made or checked, so other commands start without it
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    const child = execFile(
      "ssh-keygen",
      [...args],
      { env: env as NodeJS.ProcessEnv, maxBuffer: 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        if (code === "ENOENT")
          reject(
            new SkillshelfError("signature_tool_missing", "ssh-keygen (OpenSSH) is not installed", {
              details: { tool: "ssh-keygen" },
            }),
          );
        else
          resolve({
            status: error === null ? 0 : Number((error as { code?: unknown }).code ?? 1),
            stdout,
            stderr,
          });
      },
    );
    // ssh-keygen may exit before it has read all it was given (a garbage signature): its
    // status says why, and the write it cut short (EPIPE) is no error of ours
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(Buffer.from(input));
  });
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
