import { execFile } from "node:child_process";
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

// Settings for every git call: no hooks, no credential helpers or prompts, no ext:: transport.
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
];

/**
 * Fetch one commit of a repository into a fresh working tree at `dir` (`git init` with no
 * template, a shallow fetch of `ref` or `HEAD`, a checkout) and return the commit hash. Any URL
 * the `git` CLI accepts works. Throws `git_missing`, `git_timeout` or `git_failed` (with git's
 * own message).
 */
export async function fetchCommit(
  options: GitOptions & {
    readonly url: string;
    readonly ref: string | undefined;
    readonly dir: string;
  },
): Promise<string> {
  const { url, ref, dir } = options;
  await git(["init", "--quiet", "--template=", dir], options);
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
      ref ?? "HEAD",
    ],
    options,
    url,
  );
  await git(["-C", dir, ...SAFE_CONFIG, "checkout", "--quiet", "FETCH_HEAD"], options, url);
  return (await git(["-C", dir, "rev-parse", "HEAD"], options)).trim();
}

/** The folder name git keeps its data in, left out of staged trees. */
export const GIT_DIR = ".git";

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

function git(args: readonly string[], options: GitOptions, url?: string): Promise<string> {
  const env = gitEnvironment(options.env);
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
