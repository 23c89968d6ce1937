import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packedWithDependencies } from "@skillshelf/test-utils";
import { afterAll } from "vitest";

export const REPO: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * A copy of the workspace's package sources (made once, removed after the suite), for a test to
 * change and typecheck: workspace links point into the copy, node_modules into the repository.
 */
export function scratchWorkspace(prefix: string): {
  readonly dir: string;
  /** Replace `from` with `to` in one file of the copy (the text must be there). */
  readonly edit: (file: string, from: string, to: string) => void;
  readonly write: (file: string, text: string) => void;
  /** The type errors of the whole program (cli reaches every package through `source`). */
  readonly typeErrors: () => string[];
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ["tsconfig.base.json", "package.json"])
    cpSync(join(REPO, name), join(dir, name));
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  for (const name of readdirSync(join(REPO, "packages"))) {
    const from = join(REPO, "packages", name);
    const to = join(dir, "packages", name);
    for (const part of ["package.json", "tsconfig.json", "src"])
      cpSync(join(from, part), join(to, part), { recursive: true });
    // workspace links are relative (../../../core), so they point into the copy
    if (existsSync(join(from, "node_modules")))
      cpSync(join(from, "node_modules"), join(to, "node_modules"), {
        recursive: true,
        verbatimSymlinks: true,
      });
    // one program of sources, as an editor sees them: no project references (whose built
    // declarations the copy does not have)
    writeFileSync(
      join(to, "tsconfig.json"),
      readFileSync(join(from, "tsconfig.json"), "utf8")
        .replace(/"include": \[[^\]]*\]/, '"include": ["src"]')
        .replace(/"composite": true/, '"composite": false')
        .replace(/,\s*"references": \[[^\]]*\]/, ""),
    );
  }
  return {
    dir,
    edit: (file, from, to) => {
      const path = join(dir, file);
      const text = readFileSync(path, "utf8");
      if (!text.includes(from)) throw new Error(`${file} does not hold ${from}`);
      writeFileSync(path, text.replace(from, to));
    },
    write: (file, text) => writeFileSync(join(dir, file), text),
    typeErrors: () => {
      const tsc = join(REPO, "node_modules", ".bin", "tsc");
      const run = spawnSync(tsc, ["--noEmit", "-p", join(dir, "packages", "cli")], {
        encoding: "utf8",
      });
      return run.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
    },
  };
}

/**
 * Make `dir` a consumer of the built workspace: every package linked at
 * `node_modules/@skillshelf/<folder>`. Then `compileStrictly` compiles TypeScript there.
 */
export function linkWorkspace(dir: string): void {
  const scope = join(dir, "node_modules", "@skillshelf");
  mkdirSync(scope, { recursive: true });
  for (const folder of readdirSync(join(REPO, "packages")))
    symlinkSync(join(REPO, "packages", folder), join(scope, folder));
}

/**
 * `files` of `dir` compiled by `tsc` with strict settings under `nodenext`, as a consumer's
 * project would (`options` added to them): its output and exit status.
 */
export function compileStrictly(
  dir: string,
  files: readonly string[],
  options: Record<string, unknown> = {},
): { readonly stdout: string; readonly status: number | null } {
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: "nodenext",
        target: "es2022",
        types: ["node"],
        typeRoots: [join(REPO, "node_modules", "@types")],
        ...options,
      },
      files,
    }),
  );
  return spawnSync(
    process.execPath,
    [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
    { cwd: dir, encoding: "utf8" },
  );
}

/** The ```ts blocks of the README at `readme` (relative to the repository), in order. */
export function tsBlocks(readme: string): string[] {
  const text = readFileSync(join(REPO, readme), "utf8");
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
}

/** Run a command for a test that packs or installs: npm's chatter kept to errors. */
export function runQuietly(command: string, args: readonly string[], cwd: string) {
  return spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_loglevel: "error" },
  });
}

/** Pack every published package into `dir` (`scripts/pack-packages.mjs`); what the script said. */
export function packAll(dir: string) {
  return runQuietly(process.execPath, [join(REPO, "scripts", "pack-packages.mjs"), dir], REPO);
}

/**
 * An empty project at `project` with the tarballs of `names` (`skills-loader` …) from `packs`
 * installed by npm, as a consumer installs them: with the tarballs of their `@skillshelf`
 * dependencies beside them, which npm takes for those versions. What npm said.
 */
export function installPacked(project: string, packs: string, names: readonly string[]) {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "package.json"), '{ "name": "consumer", "private": true }\n');
  const tarballs = packedWithDependencies(packs, join(REPO, "packages"), names);
  return runQuietly("npm", ["install", "--no-audit", "--no-fund", ...tarballs], project);
}
