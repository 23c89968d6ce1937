import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The tarballs in `packs` (as `scripts/pack-packages.mjs` names them) of the workspace packages
 * `names` (folders of `packagesDir`) and of every workspace package they depend on: a tarball
 * names its `@skillshelf` dependencies by version, so npm installs them from these beside it.
 */
export function packedWithDependencies(
  packs: string,
  packagesDir: string,
  names: readonly string[],
): string[] {
  const closure = new Set<string>();
  const pending = [...names];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (closure.has(name)) continue;
    closure.add(name);
    const manifest = JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8"));
    for (const dependency of Object.keys(manifest.dependencies ?? {}))
      if (dependency.startsWith("@skillshelf/"))
        pending.push(dependency.slice("@skillshelf/".length));
  }
  return [...closure].map((name) => join(packs, `skillshelf-${name}-0.0.0.tgz`));
}
