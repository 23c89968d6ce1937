#!/usr/bin/env node
// Re-pin the example index (examples/library): write each local package's tree digest into its row's sha256.
// Run after editing anything under examples/library/packages (needs `pnpm build` first).
// Usage: node tools/pin-library.mjs [--check]   (--check: exit 1 if a pin is stale, write nothing)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { digestTree } = await import(join(root, "packages", "core", "dist", "index.js"));
const indexPath = join(root, "examples", "library", "library.yaml");
const check = process.argv.includes("--check");

let stale = 0;
const text = readFileSync(indexPath, "utf8").replace(
  /(sourceUrl: (\S+)\n(?:[ \t]+\w+:.*\n)*?[ \t]+sha256: )([0-9a-f]{64})/g,
  (_match, head, sourceUrl, pinned) => {
    const digest = digestTree(resolve(dirname(indexPath), sourceUrl)).digest;
    if (digest !== pinned) {
      stale += 1;
      console.log(`${check ? "stale" : "re-pinned"}: ${sourceUrl}`);
    }
    return `${head}${digest}`;
  },
);
if (check) process.exit(stale === 0 ? 0 : 1);
writeFileSync(indexPath, text);
console.log(`${stale} pin(s) updated in ${indexPath}`);
