import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_STAMP, cacheFile, loadBundle } from "../src/_code-cache.js";
import type { CliIo } from "../src/io.js";

/*
 * The build's last step (`pnpm build`): stamp dist/skillshelf.cjs with the digest of what tsup
 * built, compile it, run the commands people run most through it in a sandbox of its own, and
 * write the code cache that holds what they compiled (dist/skillshelf.cache). `--check [DIR]` only reports whether the bin in DIR (default: dist)
 * would take its cache: exit 0 if so, 1 if not. The build runs the check in a fresh process and
 * fails when V8 refuses what this Node just made.
 */

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");

if (process.argv[2] === "--check") {
  const dir = process.argv[3] ?? dist;
  const { cached } = loadBundle(join(dir, "skillshelf.cjs"), join(dir, "skillshelf.cache"));
  process.exitCode = cached ? 0 : 1;
} else {
  await train(join(dist, "skillshelf.cjs"), join(dist, "skillshelf.cache"));
}

async function train(bundle: string, cache: string): Promise<void> {
  stamp(bundle);
  // compiled afresh: the commands below decide what the cache holds
  const loaded = loadBundle(bundle);
  const sandbox = mkdtempSync(join(tmpdir(), "skillshelf-code-cache-"));
  try {
    const io = sandboxIo(sandbox);
    for (const argv of workload(sandbox)) {
      const status = await loaded.exports.main(argv, io);
      if (status !== 0)
        throw new Error(`code cache: \`skillshelf ${argv.join(" ")}\` exited ${status}`);
    }
    writeFileSync(cache, cacheFile(loaded));
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

/** End the bundle with the stamp of what the build made (a stamp already there is replaced). */
function stamp(bundle: string): void {
  const bytes = readFileSync(bundle);
  // the bin reads the bundle as latin1, which is the same string only while it is ASCII
  if (!isAscii(bytes)) throw new Error("code cache: the bundle holds characters beyond ASCII");
  const source = bytes.toString("utf8");
  const at = source.lastIndexOf(BUILD_STAMP);
  const built = at < 0 ? source : source.slice(0, at);
  const digest = createHash("sha256").update(built).digest("hex");
  writeFileSync(bundle, `${built}${BUILD_STAMP}${digest}\n`);
}

/**
 * A collection of two skills and a one-skill folder, installed, read, changed and removed, beside
 * a user skill whose frontmatter the fast path leaves to the full YAML parser.
 */
function workload(sandbox: string): string[][] {
  const collection = join(sandbox, "collection");
  const single = join(sandbox, "single");
  writeSkill(join(collection, "skills", "first"), "first");
  writeSkill(join(collection, "skills", "second"), "second");
  writeSkill(single, "single");
  writeSkill(
    join(sandbox, "home", ".config", "skillshelf", "skills", "anchored"),
    "anchored",
    "&text A skill\nmetadata: { summary: *text }",
  );
  const change = ["--user", "--yes"];
  return [
    ["install", collection, "--skill", "*", ...change],
    ["install", single, ...change],
    ["list"],
    ["list", "--json"],
    ["list", "--kind", "packages"],
    ["inventory"],
    ["verify"],
    ["verify", "--json"],
    ["disable", "first", ...change],
    ["enable", "first", ...change],
    ["remove", "single", ...change, "--json"],
  ];
}

function writeSkill(
  dir: string,
  name: string,
  description = `The ${name} skill of the code cache's training run.`,
): void {
  mkdirSync(join(dir, "references"), { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`,
  );
  writeFileSync(join(dir, "references", "notes.md"), `Notes for ${name}.\n`);
}

function sandboxIo(sandbox: string): CliIo {
  const home = join(sandbox, "home");
  mkdirSync(home);
  return {
    stdout: () => {},
    stderr: () => {},
    env: { PATH: process.env.PATH, HOME: home },
    cwd: sandbox,
    color: false,
    interactive: false,
    progress: false,
  };
}
