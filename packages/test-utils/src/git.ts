import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Tree, testdir, writeTree } from "./testdir.js";

/** Environment for git runs in tests: a private HOME, fixed identity, no system config. */
export function gitEnv(home: string = testdir()): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "test@example.com",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "test@example.com",
  };
}

/** A git repository made by the test: one commit per tree, tagged as given; returns its path. */
export function gitRepo(
  commits: ReadonlyArray<{ tree: Tree; tag?: string }>,
  env: Record<string, string> = gitEnv(),
): { path: string; commits: string[] } {
  const path = join(testdir(), "repo");
  mkdirSync(path);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: path, env, encoding: "utf8" }).trim();
  git("init", "--quiet", "--initial-branch=main");
  const hashes: string[] = [];
  for (const commit of commits) {
    writeTree(path, commit.tree);
    git("add", "--all");
    git("commit", "--quiet", "--allow-empty", "-m", `commit ${hashes.length + 1}`);
    if (commit.tag !== undefined) git("tag", commit.tag);
    hashes.push(git("rev-parse", "HEAD"));
  }
  return { path, commits: hashes };
}

/** A bare clone of a repository, as a server would hold it. */
export function bareClone(repo: string, env: Record<string, string> = gitEnv()): string {
  const bare = join(testdir(), "bare.git");
  execFileSync("git", ["clone", "--quiet", "--bare", repo, bare], { env });
  return bare;
}
