// An offline bundle of a scope: its lock, every installed tree, the lock's signers and audit
// verdicts, a bill of materials and, when asked, the maker's SSH signature over all of it.
// Restoring one is `restoreFromLock` with `bundle` (nothing fetched).
import type { Environment, PackageScope } from "@skillshelf/core";
import { writeBundleFile } from "@skillshelf/sources";
import { copyOf, readLockFile, readPackageSnapshot } from "@skillshelf/store";
import { refusal } from "./_refusal.js";
import type { Refusal } from "./types.js";

/**
 * Write the offline bundle of `scope` to `file`: refused (nothing written) when the lock does not
 * read, or an installed tree is not the one the lock pins (`digest_mismatch`: verify, or restore
 * it, first). Signed with the SSH key `sign` (a private key, or a `.pub` an agent holds) when given.
 */
export async function createBundle(request: {
  readonly environment: Environment;
  readonly scope: PackageScope;
  readonly file: string;
  readonly sign?: string | undefined;
  /** The tool named in the bill of materials. */
  readonly tool: { readonly name: string; readonly version: string };
}): Promise<
  | { readonly file: string; readonly packages: number; readonly bytes: number }
  | { readonly refusal: Refusal }
> {
  const { environment, scope, file } = request;
  const lock = readLockFile(environment, scope);
  if (!lock.ok) {
    const [first] = lock.diagnostics;
    return {
      refusal: refusal("lock_invalid", first?.message ?? "lock.json cannot be read", {
        diagnostics: lock.diagnostics,
      }),
    };
  }
  const pinned = lock.value.value.packages;
  const snapshot = readPackageSnapshot(environment, { ids: Object.keys(pinned) });
  const trees = new Map<string, string>();
  const packages: Record<string, string> = {};
  for (const [id, entry] of Object.entries(pinned)) {
    const copy = copyOf(snapshot, scope, id);
    if (copy?.observedDigest !== entry.digest)
      return {
        refusal: refusal(
          "digest_mismatch",
          `${id} in the ${scope} scope is not the tree its lock pins (skillshelf verify says how; skillshelf install restores it)`,
          { expected: entry.digest, observed: copy?.observedDigest },
        ),
      };
    trees.set(id, copy.dir);
    packages[id] = entry.digest;
  }
  // loaded only here: the CycloneDX library it brings would cost every command that loads
  // lifecycle some 80 ms at start-up
  const { scopeSbom } = await import("@skillshelf/inventory/sbom");
  const bytes = await writeBundleFile(file, {
    manifest: {
      version: 1,
      scope,
      created: new Date().toISOString(),
      lock: lock.value.value,
      packages,
    },
    trees,
    sbom: scopeSbom({ environment, scopes: [scope], tool: request.tool, snapshot }),
    ...(request.sign === undefined ? {} : { sign: { key: request.sign, env: environment.env } }),
  });
  return { file, packages: trees.size, bytes };
}
