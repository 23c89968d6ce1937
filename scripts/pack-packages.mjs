#!/usr/bin/env node
// Pack every published package of the workspace into one folder with `pnpm pack`: the tarballs
// `changeset publish` would upload (each `@skillshelf` dependency named by its version, the
// `source` condition left out by `publishConfig`). Installing one from a folder therefore needs its
// `@skillshelf` dependencies' tarballs named beside it (npm takes them for those versions).
// Run through `npm run pack-packages` (which installs and builds first); the packages' dist/ must
// be built.   Usage: node scripts/pack-packages.mjs [OUT]   (default: packs/)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const out = resolve(process.argv[2] ?? join(root, "packs"));
mkdirSync(out, { recursive: true });
// the pinned pnpm `npm test` puts in .tools/ when PATH has none
const env = {
  ...process.env,
  PATH: `${join(root, ".tools", "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`,
};
for (const folder of readdirSync(join(root, "packages"))) {
  const dir = join(root, "packages", folder);
  if (!existsSync(join(dir, "package.json"))) continue;
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (manifest.private === true) continue;
  if (!existsSync(join(dir, "dist"))) {
    console.error(`pack-packages: ${manifest.name} is not built (no ${folder}/dist): build first`);
    process.exit(1);
  }
  const result = spawnSync("pnpm", ["pack", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
    env,
    shell: process.platform === "win32",
  });
  if (result.status !== 0) {
    console.error(`pack-packages: pnpm pack of ${manifest.name} failed:\n${result.stderr}`);
    process.exit(1);
  }
  console.log(result.stdout.trim().split("\n").at(-1));
}
