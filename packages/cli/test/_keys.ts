import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testdir } from "@skillshelf/test-utils";
import type { ChangeSandbox } from "./_sandbox.js";

/** A fresh ed25519 key pair made by ssh-keygen: the private key's path and the public key line. */
export function makeKey(comment: string): { readonly path: string; readonly publicKey: string } {
  const path = join(testdir(), "key");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path]);
  return { path, publicKey: readFileSync(`${path}.pub`, "utf8").trim() };
}

/** OpenSSH's fingerprint of a key, as `ssh-keygen -l` prints it. */
export function fingerprintOf(key: { readonly path: string }): string {
  return execFileSync("ssh-keygen", ["-l", "-f", `${key.path}.pub`], { encoding: "utf8" }).split(
    " ",
  )[1] as string;
}

/** A policy in `box`'s configuration that requires every package signed by one of `keys`. */
export function requireSignatures(box: ChangeSandbox, keys: readonly string[]): void {
  mkdirSync(box.configDir, { recursive: true });
  writeFileSync(
    join(box.configDir, "policy.yaml"),
    `signatures:\n  required: true\n  keys:\n${keys.map((key) => `    - '${key}'\n`).join("")}`,
  );
}
