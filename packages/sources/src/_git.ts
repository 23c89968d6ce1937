import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { errnoCode, SkillshelfError } from "@skillshelf/core";
import type { SourceLimits } from "./_archive.js";
import { assertTreeWithin, storedBytes, tooMuchFetched, watchFetch } from "./_git-limits.js";
import { verifiedSigner } from "./ssh-signature.js";

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
  /** Also pass the user's `GIT_AUTHOR_*` and `GIT_COMMITTER_*` variables (a publish commits). */
  readonly identity?: boolean | undefined;
}

// Settings for every git call: no hooks, prompts or ext:: transport, and no background
// maintenance after a fetch; a fetch uses no credential helper either (PUBLISH_CONFIG does).
const PUBLISH_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
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
const SAFE_CONFIG = [...PUBLISH_CONFIG, "-c", "credential.helper="];

/**
 * Check out one commit of a repository into `dir`, a folder that must not exist yet, keeping
 * git's own data in `gitDir` (so `dir` holds only the commit's files), and return the commit
 * hash. No ref, or a branch or tag name, is one shallow `git clone`; any other ref (a commit
 * hash, a `refs/…` name) is a shallow fetch of it into an empty repository (`emptyRepository`). Any URL the `git` CLI accepts
 * works; a local path is fetched through git's transport like any URL, never hard-linked. The
 * fetch is stopped once git has received more than `limits.maxDownloadBytes`, and the commit is
 * checked out only after its listing shows it within `maxUnpackedBytes` and `maxEntries`
 * (`source_too_large`). What `alongside` reads of the commit runs beside its listing and
 * checkout, and is returned with it. Throws `git_missing`, `git_timeout` or `git_failed` (with
 * git's own message).
 */
export async function fetchCommit<T>(
  options: GitOptions & {
    readonly url: string;
    readonly ref: string | undefined;
    readonly dir: string;
    readonly gitDir: string;
    readonly limits: SourceLimits;
    /** What else to read of the commit, beside its listing and checkout (git reads concurrently). */
    readonly alongside: (commit: string) => Promise<T>;
  },
): Promise<{ readonly commit: string; readonly alongside: T }> {
  const { url, ref, dir, gitDir, limits } = options;
  const separate = ["--quiet", "--template=", "--separate-git-dir", gitDir];
  const watched = watchFetch(gitDir, limits.maxDownloadBytes, options.signal);
  const fetching = { ...options, signal: watched.signal };
  let commitish: "HEAD" | "FETCH_HEAD";
  try {
    if (ref === undefined || isPlainName(ref)) {
      const branch = ref === undefined ? [] : ["--branch", ref];
      const clone = [
        "clone",
        ...separate,
        "--no-checkout",
        "--depth",
        "1",
        "--no-tags",
        "--single-branch",
        "--no-local",
      ];
      await git([...SAFE_CONFIG, ...clone, ...branch, "--", url, dir], fetching, url);
      commitish = "HEAD";
    } else {
      emptyRepository(dir, gitDir);
      await git(
        [
          "-C",
          dir,
          ...SAFE_CONFIG,
          "fetch",
          "--depth",
          "1",
          "--no-tags",
          "--quiet",
          "--",
          url,
          ref,
        ],
        fetching,
        url,
      );
      commitish = "FETCH_HEAD";
    }
  } catch (error) {
    if (watched.exceeded()) throw tooMuchFetched(url, limits);
    throw error;
  } finally {
    watched.stop();
  }
  // a fetch quicker than the watch is measured once it is done
  if (storedBytes(gitDir) > limits.maxDownloadBytes) throw tooMuchFetched(url, limits);
  // a fetched ref may name a tag: FETCH_HEAD is peeled to its commit by git
  const commit =
    (commitish === "HEAD" ? headCommit(gitDir) : fetchedHash(gitDir, ref)) ??
    (
      await git(["--git-dir", gitDir, "rev-parse", "--verify", `${commitish}^{commit}`], options)
    ).trim();
  // settled whatever happens, so a failure beside the checkout is never left unhandled
  const beside = options.alongside(commit).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  try {
    assertTreeWithin(
      await git(["--git-dir", gitDir, "ls-tree", "-r", "-l", "-z", commit], options),
      url,
      limits,
    );
    // a checkout of many files writes them with a worker per core (git 2.32+; older git ignores it)
    await git(
      ["-C", dir, ...SAFE_CONFIG, "-c", "checkout.workers=0", "checkout", "--quiet", commit],
      options,
      url,
    );
  } finally {
    // nothing is left reading the repository once this returns or throws
    await beside;
  }
  // the work tree's `.git` is a file naming gitDir; the staged tree leaves it out
  rmSync(join(dir, GIT_DIR), { force: true });
  const read = await beside;
  if ("error" in read) throw read.error;
  return { commit, alongside: read.value };
}

/**
 * Who signed `commit` (in the repository at `gitDir`) with an SSH key, as git signs commits
 * (`gpg.format=ssh`): the key's fingerprint (`ssh:SHA256:…`), or `undefined` for a commit with
 * no SSH signature. A signature that does not verify is `signature_invalid`.
 */
export async function commitSigner(
  options: GitOptions & {
    readonly gitDir: string;
    readonly commit: string;
    readonly url: string;
    readonly tempDir?: string | undefined;
  },
): Promise<string | undefined> {
  const object = await git(
    ["--git-dir", options.gitDir, "cat-file", "commit", options.commit],
    options,
  );
  // the signature is the `gpgsig` header, its lines after the first indented by one space; what
  // it signs is the object without that header
  const lines = object.split("\n");
  const start = lines.findIndex((line) => line.startsWith("gpgsig -----BEGIN SSH SIGNATURE-----"));
  if (start === -1) return undefined;
  let end = start + 1;
  while (end < lines.length && lines[end]?.startsWith(" ")) end++;
  const signature = [
    (lines[start] as string).slice("gpgsig ".length),
    ...lines.slice(start + 1, end).map((line) => line.slice(1)),
    "",
  ].join("\n");
  const payload = [...lines.slice(0, start), ...lines.slice(end)].join("\n");
  return verifiedSigner(
    Buffer.from(payload),
    signature,
    {
      name: `commit ${options.commit} of ${options.url}`,
      details: { url: options.url, commit: options.commit },
    },
    { tempDir: options.tempDir, namespace: "git" },
  );
}

/**
 * The commit `ref` names in the repository at `url` now, asked with one `git ls-remote` (nothing
 * is fetched): no ref is the remote's HEAD; a branch or tag name is looked up as a branch first,
 * then as a tag (peeled to its commit); a `refs/…` name as given. A commit hash names itself and
 * is answered without asking. `undefined` when the repository has no such ref.
 */
export async function remoteCommit(
  options: GitOptions & { readonly url: string; readonly ref: string | undefined },
): Promise<string | undefined> {
  const { url, ref } = options;
  if (ref !== undefined && HASH.test(ref)) return ref;
  const patterns =
    ref === undefined
      ? ["HEAD"]
      : isPlainName(ref)
        ? [`refs/heads/${ref}`, `refs/tags/${ref}^{}`, `refs/tags/${ref}`]
        : [ref];
  const listing = await git([...SAFE_CONFIG, "ls-remote", "--", url, ...patterns], options, url);
  const named = new Map<string, string>();
  for (const line of listing.split("\n")) {
    const [hash, name] = line.split("\t");
    if (hash !== undefined && name !== undefined && HASH.test(hash)) named.set(name, hash);
  }
  return patterns.map((pattern) => named.get(pattern)).find((hash) => hash !== undefined);
}

/** The folder name git keeps its data in, left out of staged trees. */
export const GIT_DIR = ".git";

/**
 * What `git init --separate-git-dir gitDir dir --template=` leaves, written without starting git
 * (a process less for each commit a restore fetches): the three entries git requires of a
 * repository (`HEAD`, `objects/`, `refs/`), a format-0 config, and `dir/.git` naming `gitDir`.
 */
function emptyRepository(dir: string, gitDir: string): void {
  mkdirSync(join(gitDir, "objects"), { recursive: true });
  mkdirSync(join(gitDir, "refs", "heads"), { recursive: true });
  mkdirSync(join(gitDir, "refs", "tags"));
  writeFileSync(join(gitDir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(gitDir, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, GIT_DIR), `gitdir: ${resolve(gitDir)}\n`);
}

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

/** Who a commit is by, when the user sets it in the environment rather than git's config. */
const GIT_IDENTITY: readonly string[] = [
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
];

/** The environment git runs with: the allowed variables of the caller's, then our fixed settings. */
function gitEnvironment(
  callerEnv: Readonly<Record<string, string | undefined>>,
  identity = false,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of identity ? [...GIT_ENV_ALLOWED, ...GIT_IDENTITY] : GIT_ENV_ALLOWED) {
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

/**
 * Run `git` for `publish` (which clones, commits, tags and pushes to a repository the user named):
 * the settings every call here has (no hooks, prompts or `ext::`) but the user's own credential
 * helper, which a push to an https host needs; the allowed environment and the commit identity
 * variables. `what` names the repository in a failure (`git_failed`, `git_missing`, `git_timeout`).
 */
export function runGit(
  args: readonly string[],
  options: GitOptions,
  what: string,
): Promise<string> {
  return git([...PUBLISH_CONFIG, ...args], { ...options, identity: true }, what);
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
 * The hash a fetch of the full hash `ref` brought (FETCH_HEAD's, read from its file): the commit a
 * lock pins, with no `rev-parse` to ask. `undefined` for a ref that is no full hash, or anything
 * else FETCH_HEAD holds, for `git rev-parse` to answer (a tag is peeled there).
 */
function fetchedHash(gitDir: string, ref: string | undefined): string | undefined {
  if (ref === undefined || !HASH.test(ref)) return undefined;
  try {
    return readFileSync(join(gitDir, "FETCH_HEAD"), "utf8").startsWith(`${ref}\t`)
      ? ref
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The commit HEAD names, read from git's files: the hash a detached HEAD holds, or the loose ref
 * of the branch it points at. `undefined` when it is anything else (packed, another ref
 * storage), for `git rev-parse` to answer.
 */
function headCommit(gitDir: string): string | undefined {
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

/** The most git may print (a listing of a commit of the largest size allowed). */
const MAX_GIT_OUTPUT = 64 * 1024 * 1024;

async function git(args: readonly string[], options: GitOptions, url?: string): Promise<string> {
  const env = gitEnvironment(options.env, options.identity);
  // loaded when a git source is fetched, so other sources start without it
  const { spawn } = await import("node:child_process");
  const what = url ?? "git";
  return new Promise((resolve, reject) => {
    // git runs its helpers (upload-pack, index-pack, checkout workers) in a process group of its
    // own, and a cancel, a timeout or too much output stops the whole group: killing git alone
    // left index-pack writing into a staging folder while it was being removed
    const child = spawn("git", args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stopped: "aborted" | "timeout" | "output" | undefined;
    let settled = false;
    const stop = (why: NonNullable<typeof stopped>) => {
      stopped ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is gone already
      }
    };
    const abort = () => stop("aborted");
    const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
    if (options.signal?.aborted === true) abort();
    else options.signal?.addEventListener("abort", abort, { once: true });
    const finish = (error?: SkillshelfError, stdout?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abort);
      if (error === undefined) resolve(stdout ?? "");
      else reject(error);
    };
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_GIT_OUTPUT) stop("output");
      else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err = `${err}${chunk.toString("utf8")}`.slice(-65_536);
    });
    child.on("error", (error) => {
      finish(
        errnoCode(error) === "ENOENT"
          ? new SkillshelfError("git_missing", "git is not installed or not on PATH", {
              cause: error,
            })
          : new SkillshelfError("git_failed", `git failed on ${what}: ${error.message}`, {
              cause: error,
            }),
      );
    });
    child.on("close", (code, signal) => {
      if (code === 0 && stopped === undefined)
        return finish(undefined, Buffer.concat(out).toString("utf8"));
      const cause = new Error(`git exited with ${signal ?? code}`);
      if (stopped === "aborted")
        return finish(new SkillshelfError("aborted", `fetching ${what} was cancelled`, { cause }));
      if (stopped === "timeout")
        return finish(
          new SkillshelfError(
            "git_timeout",
            `git did not finish fetching ${what} within ${options.timeoutMs} ms`,
            { cause },
          ),
        );
      const message =
        stopped === "output"
          ? `it printed more than ${MAX_GIT_OUTPUT} bytes`
          : err.trim().split("\n").slice(-3).join(" ") || cause.message;
      finish(new SkillshelfError("git_failed", `git failed on ${what}: ${message}`, { cause }));
    });
  });
}
