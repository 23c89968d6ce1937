import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { errnoCode, SkillshelfError } from "@skillshelf/core";

/** How `git` is run while staging. */
export interface GitOptions {
  /**
   * The caller's environment variables; only those in `GIT_ENV_ALLOWED` reach `git` (PATH, HOME,
   * proxies, certificates, the ssh agent). Prompts are always off, and the transports git may use
   * are always `GIT_TRANSPORTS`, whatever the caller's `GIT_ALLOW_PROTOCOL` says.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

// Settings for every git call: no hooks, no credential helpers or prompts, no ext:: transport,
// and no background maintenance after a fetch.
const SAFE_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "credential.helper=",
  "-c",
  "protocol.ext.allow=never",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "advice.detachedHead=false",
  "-c",
  "maintenance.auto=false",
  "-c",
  "gc.auto=0",
];

/**
 * Check out one commit of a repository into `dir`, a folder that must not exist yet, keeping
 * git's own data in `gitDir` (so `dir` holds only the commit's files), and return the commit
 * hash. No ref, or a branch or tag name, is one shallow `git clone`; any other ref (a commit
 * hash, a `refs/…` name) is `git init`, a shallow fetch of it and a checkout. Any URL the `git`
 * CLI accepts works; a local path is fetched through git's transport like any URL, never
 * hard-linked. Throws `git_missing`, `git_timeout` or `git_failed` (with git's own message).
 */
export async function fetchCommit(
  options: GitOptions & {
    readonly url: string;
    readonly ref: string | undefined;
    readonly dir: string;
    readonly gitDir: string;
  },
): Promise<string> {
  const { url, ref, dir, gitDir } = options;
  const separate = ["--quiet", "--template=", "--separate-git-dir", gitDir];
  if (ref === undefined || isPlainName(ref)) {
    const branch = ref === undefined ? [] : ["--branch", ref];
    const clone = [
      "clone",
      ...separate,
      "--depth",
      "1",
      "--no-tags",
      "--single-branch",
      "--no-local",
    ];
    await git([...SAFE_CONFIG, ...clone, ...branch, "--", url, dir], options, url);
  } else {
    await git(["init", ...separate, dir], options);
    await git(
      ["-C", dir, ...SAFE_CONFIG, "fetch", "--depth", "1", "--no-tags", "--quiet", "--", url, ref],
      options,
      url,
    );
    await git(["-C", dir, ...SAFE_CONFIG, "checkout", "--quiet", "FETCH_HEAD"], options, url);
  }
  // the work tree's `.git` is a file naming gitDir; the staged tree leaves it out
  rmSync(join(dir, GIT_DIR), { force: true });
  return (
    checkedOutCommit(gitDir) ??
    (await git(["--git-dir", gitDir, "rev-parse", "HEAD"], options)).trim()
  );
}

/** The folder name git keeps its data in, left out of staged trees. */
export const GIT_DIR = ".git";

/** `copyTree`'s `skip` for a fetched tree: its `.git` folders are left out. */
export const skipGit = (name: string): boolean => name === GIT_DIR;

/** The only transports git may use while staging. */
const GIT_TRANSPORTS: readonly string[] = ["https", "ssh", "git", "file"];

/**
 * The caller's variables passed on to git. Everything else is dropped: `GIT_ALLOW_PROTOCOL`,
 * `GIT_CONFIG_*`, `GIT_EXEC_PATH`, `GIT_DIR` and the like could widen or redirect what git runs.
 */
const GIT_ENV_ALLOWED: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "XDG_CONFIG_HOME",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "GIT_SSL_CAINFO",
  "GIT_SSL_CAPATH",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CURL_CA_BUNDLE",
  "SSH_AUTH_SOCK",
  "GIT_SSH_COMMAND",
  "GIT_CONFIG_NOSYSTEM",
];

/** The environment git runs with: the allowed variables of the caller's, then our fixed settings. */
function gitEnvironment(
  callerEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of GIT_ENV_ALLOWED) {
    const value = callerEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    GIT_ALLOW_PROTOCOL: GIT_TRANSPORTS.join(":"),
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "echo",
    SSH_ASKPASS: "echo",
    GCM_INTERACTIVE: "never",
    GIT_SSH_COMMAND: env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes",
  };
}

// --- internal ---

const HASH = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * A ref `git clone --branch` takes: a branch or tag name. A hex string could be a commit, and
 * `HEAD` or a `refs/…` name is not a branch name, so those are fetched instead.
 */
function isPlainName(ref: string): boolean {
  return ref !== "HEAD" && !ref.startsWith("refs/") && !/^[0-9a-f]{4,64}$/i.test(ref);
}

/**
 * The commit HEAD names, read from git's files: the hash a detached HEAD holds, or the loose ref
 * of the branch it points at. `undefined` when it is anything else (packed, another ref
 * storage), for `git rev-parse` to answer.
 */
function checkedOutCommit(gitDir: string): string | undefined {
  const read = (path: string) => {
    try {
      return readFileSync(join(gitDir, path), "utf8").trim();
    } catch {
      return undefined;
    }
  };
  const head = read("HEAD");
  const branch = /^ref: (refs\/heads\/[^\s]+)$/.exec(head ?? "")?.[1];
  const commit = branch === undefined ? head : read(branch);
  return commit !== undefined && HASH.test(commit) ? commit : undefined;
}

async function git(args: readonly string[], options: GitOptions, url?: string): Promise<string> {
  const env = gitEnvironment(options.env);
  // loaded when a git source is fetched, so other sources start without it
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        env,
        timeout: options.timeoutMs,
        killSignal: "SIGKILL",
        maxBuffer: 4 * 1024 * 1024,
        signal: options.signal,
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        const what = url ?? "git";
        if (errnoCode(error) === "ENOENT")
          return reject(
            new SkillshelfError("git_missing", "git is not installed or not on PATH", {
              hint: "install git, or use a local folder or an archive source",
              cause: error,
            }),
          );
        if (error.name === "AbortError")
          return reject(
            new SkillshelfError("aborted", `fetching ${what} was cancelled`, { cause: error }),
          );
        if ((error as { killed?: boolean }).killed)
          return reject(
            new SkillshelfError(
              "git_timeout",
              `git did not finish fetching ${what} within ${options.timeoutMs} ms`,
              { hint: "check the network and the URL, then retry", cause: error },
            ),
          );
        const message = stderr.trim().split("\n").slice(-3).join(" ") || error.message;
        reject(
          new SkillshelfError("git_failed", `git could not fetch ${what}: ${message}`, {
            hint: "check the URL, the ref and your access to the repository",
            cause: error,
          }),
        );
      },
    );
  });
}
