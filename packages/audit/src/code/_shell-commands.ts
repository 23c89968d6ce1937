// What a shell command does, judged from its name and arguments once they are resolved.
import { ENV_FILE, PERSISTENCE_PATH, SECRET_PATH } from "./judgment.js";

/** A command as the shell would run it: its name and arguments resolved, wrappers taken off. */
export interface Resolved {
  /** The program's base name (`/usr/bin/curl` is `curl`), or `undefined` when it cannot be read. */
  readonly name: string | undefined;
  readonly args: readonly string[];
  /** The name was built from variables or escapes, not written as it is. */
  readonly built: boolean;
}

const FETCHERS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "aria2c",
  "http",
  "https",
  "xh",
  "fetch",
  "lwp-download",
  "lynx",
]);
export const RUNNERS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "source",
  ".",
  "eval",
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "node",
  "php",
  "pwsh",
  "powershell",
  "osascript",
  "deno",
  "bun",
  "lua",
]);
export const SENDERS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "nc",
  "ncat",
  "netcat",
  "telnet",
  "socat",
  "dig",
  "nslookup",
  "host",
  "scp",
  "rsync",
  "ftp",
  "sftp",
  "mail",
  "sendmail",
]);
const READERS: ReadonlySet<string> = new Set([
  "cat",
  "less",
  "more",
  "head",
  "tail",
  "grep",
  "cp",
  "scp",
  "rsync",
  "tar",
  "zip",
  "7z",
  "base64",
  "xxd",
  "od",
  "strings",
  "sqlite3",
  "find",
  "gpg",
  "openssl",
  "awk",
  "sed",
  "jq",
  "tac",
  "nl",
  "dd",
]);
export const WRAPPERS: ReadonlySet<string> = new Set([
  "sudo",
  "doas",
  "env",
  "command",
  "exec",
  "nohup",
  "time",
  "nice",
  "stdbuf",
  "xargs",
  "timeout",
  "builtin",
]);
export function baseName(word: string | undefined): string | undefined {
  if (word === undefined || word === "") return undefined;
  return word === "." ? "." : (word.split("/").pop() ?? word);
}

export function isFetch(command: Resolved): boolean {
  const { name, args } = command;
  if (name === undefined) return false;
  if (FETCHERS.has(name)) return true;
  // a raw connection that only reads what a host sends
  if ((name === "nc" || name === "ncat" || name === "netcat") && !args.includes("-l"))
    return args.length >= 2;
  return (
    /^python[\d.]*$/.test(name) && args.some((arg) => /urlopen|requests\.get|urllib/.test(arg))
  );
}

export function isDecoder(command: Resolved): boolean {
  const { name, args } = command;
  switch (name) {
    case "base64":
    case "base32":
      return args.some((arg) => /^-(?:d|D|\w*d)$|^--decode$/.test(arg));
    case "xxd":
      return args.some((arg) => /^-\w*r/.test(arg));
    case "openssl":
      return args.includes("-d") && args.some((arg) => /^(?:enc|base64|-base64|-a)$/.test(arg));
    case "printf":
      return /\\x[0-9a-f]{2}|\\[0-7]{3}/i.test(args[0] ?? "");
    case "echo":
      return (
        args.some((arg) => /^-\w*e/.test(arg)) && args.some((arg) => /\\x[0-9a-f]{2}/i.test(arg))
      );
    case "rev":
    case "gunzip":
    case "zcat":
    case "uudecode":
      return true;
    case "gzip":
    case "bzip2":
    case "xz":
      return args.some((arg) => /^-\w*d/.test(arg));
    default:
      return false;
  }
}

/** It runs code it reads from its input (or from `-c`, for `withCode`), rather than from a file it names. */
export function isRunner(command: Resolved, withCode = false): boolean {
  const { name, args } = command;
  if (name === undefined || !RUNNERS.has(name)) return false;
  if (name === "eval") return true;
  if (withCode) return true;
  const operands = args.filter((arg) => !/^-/.test(arg));
  // `sh`, `bash -s`, `python -`, `source /dev/stdin`: the program comes from stdin
  return (
    operands.length === 0 ||
    operands[0] === "-" ||
    /^\/dev\/(?:stdin|fd\/0)$/.test(operands[0] ?? "")
  );
}

/** It reads a project's `.env`: a secret when sent, an honest read otherwise. */
export function readsEnvFile(command: Resolved): boolean {
  return (
    command.name !== undefined &&
    READERS.has(command.name) &&
    command.args.some((arg) => ENV_FILE.test(` ${arg}`))
  );
}

export function readsSecret(command: Resolved): boolean {
  const { name, args } = command;
  if (name === undefined) return false;
  if ((name === "env" || name === "printenv") && args.length === 0) return true;
  if (name === "set" && args.length === 0) return true;
  if (name === "export" && args.includes("-p")) return true;
  if (
    name === "security" &&
    args.some((arg) => /^find-(?:generic|internet)-password$|^dump-keychain$/.test(arg))
  )
    return true;
  if (name === "gpg" && args.some((arg) => /^--export-secret/.test(arg))) return true;
  return READERS.has(name) && args.some((arg) => SECRET_PATH.test(arg));
}

/** It sends something to a host: a network command given data, an upload, or a substitution in its URL. */
export function isSender(command: Resolved): boolean {
  const { name, args } = command;
  if (name === undefined || !SENDERS.has(name)) return false;
  if (name === "curl")
    return args.some(
      (arg) =>
        /^(?:-d|--data(?:-\w+)?|-F|--form|-T|--upload-file|--json)$/.test(arg) || /^-X$/.test(arg),
    );
  if (name === "wget") return args.some((arg) => /^--(?:post|body)-(?:data|file)/.test(arg));
  if (name === "scp" || name === "rsync") return args.some((arg) => /^[\w.-]+@?[\w.-]*:/.test(arg));
  return args.length > 0;
}

/** It sends a local file: a form or upload of any file, or a body read from a secret (`curl -d @~/.aws/credentials`). */
export function uploadsFile(command: Resolved): boolean {
  if (command.name !== "curl" && command.name !== "wget") return false;
  return command.args.some((arg, at) => {
    const flag = command.args[at - 1] ?? "";
    const file = arg.replace(/^(?:[\w.-]+=)?@/, " ");
    if (/^(?:-F|--form)$/.test(flag)) return /^(?:[\w.-]+=)?@(?!-$)/.test(arg);
    if (/^(?:-T|--upload-file|--post-file|--body-file)$/.test(flag)) return arg !== "-";
    return /^(?:[\w.-]+=)?@/.test(arg) && isSecretFile(file);
  });
}

function isSecretFile(path: string): boolean {
  return SECRET_PATH.test(path) || ENV_FILE.test(path);
}

export function writesPersistence(command: Resolved): boolean {
  const { name, args } = command;
  if (name === "crontab") return args.length > 0 && !args.every((arg) => /^-[lre]$/.test(arg));
  if (name === "launchctl") return args.some((arg) => /^(?:load|bootstrap|enable)$/.test(arg));
  if (name === "systemctl") return args.includes("enable");
  if (name === "tee" || name === "cp" || name === "mv" || name === "ln" || name === "install")
    return PERSISTENCE_PATH.test(args[args.length - 1] ?? "");
  return false;
}
