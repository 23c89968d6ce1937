#!/usr/bin/env node
// Pack every published package of the workspace into one folder, each tarball's `@skillshelf`
// dependencies pointing at its siblings there, so `npm install <folder>/skillshelf-<name>-<version>.tgz`
// installs a package with what it needs from this workspace and the rest from the npm registry.
// Run through `npm run pack-packages` (which installs and builds first); the packages' dist/ must
// be built.   Usage: node scripts/pack-packages.mjs [OUT]   (default: packs/)
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const out = resolve(process.argv[2] ?? join(root, "packs"));
mkdirSync(out, { recursive: true });
const packages = readdirSync(join(root, "packages"))
  .map((folder) => ({ folder, dir: join(root, "packages", folder) }))
  .filter(({ dir }) => existsSync(join(dir, "package.json")))
  .map((entry) => ({
    ...entry,
    manifest: JSON.parse(readFileSync(join(entry.dir, "package.json"), "utf8")),
  }))
  .filter(({ manifest }) => manifest.private !== true);
const tarballOf = (manifest) =>
  join(out, `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`);
const versions = new Map(packages.map(({ manifest }) => [manifest.name, tarballOf(manifest)]));
const staging = mkdtempSync(join(tmpdir(), "skillshelf-pack-"));
try {
  for (const { folder, dir, manifest } of packages) {
    if (!existsSync(join(dir, "dist"))) {
      console.error(
        `pack-packages: ${manifest.name} is not built (no ${folder}/dist): build first`,
      );
      process.exit(1);
    }
    const stage = join(staging, folder);
    mkdirSync(stage);
    for (const name of [...(manifest.files ?? []), "README.md", "LICENSE"])
      if (existsSync(join(dir, name)))
        cpSync(join(dir, name), join(stage, name), { recursive: true });
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(packed(manifest), null, 2)}\n`);
    const result = spawnSync("npm", ["pack", "--silent", "--pack-destination", out], {
      cwd: stage,
      encoding: "utf8",
      shell: process.platform === "win32",
    });
    if (result.status !== 0) {
      console.error(`pack-packages: npm pack of ${manifest.name} failed:\n${result.stderr}`);
      process.exit(1);
    }
    console.log(tarballOf(manifest));
  }
} finally {
  rmSync(staging, { recursive: true, force: true });
}

/**
 * The manifest as published: workspace dependencies pointing at their tarballs in OUT, no
 * development dependencies, and no `source` condition (the TypeScript sources are not packed).
 */
function packed(manifest) {
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies ?? {}).map(([name, range]) => [
      name,
      versions.has(name) ? `file:${versions.get(name)}` : range,
    ]),
  );
  const exports = Object.fromEntries(
    Object.entries(manifest.exports ?? {}).map(([entry, conditions]) => [
      entry,
      typeof conditions === "object"
        ? Object.fromEntries(
            Object.entries(conditions).filter(([condition]) => condition !== "source"),
          )
        : conditions,
    ]),
  );
  const { devDependencies, scripts, ...rest } = manifest;
  return { ...rest, exports, dependencies };
}
