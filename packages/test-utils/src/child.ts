import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { onTestFinished } from "vitest";
import { testdir } from "./testdir.js";

/** How a child process ended: its exit code or signal, whether it was killed for time, its output. */
export interface ChildRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly killed: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** What `runNodeChild` runs. */
export interface NodeChildOptions {
  /** Modules to import, as `binding → file or node: module`: `{ store: ".../dist/index.js", "{ existsSync }": "node:fs" }`. */
  readonly imports: Readonly<Record<string, string>>;
  /** The body of an ES module, with the imports, `args` and `sleep(ms)` in scope. */
  readonly body: string;
  readonly args?: unknown;
  /** Killed with SIGKILL after this long (`killed` is then true). Default: never. */
  readonly timeoutMs?: number | undefined;
  /** Variables added to this process's environment. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** A command that runs the child (`node script args` appended to it), such as `smallFilesystem`'s. */
  readonly wrapper?: readonly string[] | undefined;
}

/**
 * Run a module body in a separate Node process. A child can be SIGKILLed mid-write, run beside
 * others, or be stopped when a synchronous loop never ends, none of which a test can do in-process.
 * A child still running when its test ends (it failed, or timed out first) is killed then, so
 * none outlives the run.
 */
export function runNodeChild(options: NodeChildOptions): Promise<ChildRun> {
  const script = join(testdir(), "child.mjs");
  writeFileSync(
    script,
    [
      ...Object.entries(options.imports).map(
        ([binding, file]) =>
          `import ${binding.startsWith("{") ? binding : `* as ${binding}`} from ${JSON.stringify(file.startsWith("node:") ? file : pathToFileURL(file).href)};`,
      ),
      "const args = JSON.parse(process.argv[2]);",
      "const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);",
      options.body,
    ].join("\n"),
  );
  return new Promise((resolve, reject) => {
    const [command = process.execPath, ...prefix] = [...(options.wrapper ?? []), process.execPath];
    const child = spawn(command, [...prefix, script, JSON.stringify(options.args ?? null)], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...options.env },
    });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            killed = true;
            child.kill("SIGKILL");
          }, options.timeoutMs);
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killed, stdout, stderr });
    });
  });
}

/**
 * A command prefix (for `wrapper`) that runs the child with a real, small file system of its own:
 * a `sizeKiB` tmpfs mounted on `mountPoint` in a private mount namespace (`unshare -rm`), gone when
 * the child ends, so a test can fill it up without filling the machine's disk. `undefined` where
 * this machine cannot make one (no user namespaces, no `unshare`): the caller then injects the
 * failure instead.
 */
export function smallFilesystem(mountPoint: string, sizeKiB: number): string[] | undefined {
  const mount = `mount -t tmpfs -o size=${sizeKiB}k tmpfs "$0"`;
  const probe = spawnSync("unshare", ["-rm", "sh", "-c", mount, mountPoint], { stdio: "ignore" });
  if (probe.status !== 0) return undefined;
  return ["unshare", "-rm", "sh", "-c", `${mount} && shift && exec "$@"`, mountPoint, "--"];
}

/**
 * A command that runs its arguments with `folder` read-only (`EROFS`) through a read-only bind
 * mount of it in a private mount namespace (`unshare -rm`): for a test run as root, which a
 * `chmod` does not stop. `undefined` where this machine cannot make one.
 */
export function readOnlyFolder(folder: string): string[] | undefined {
  const mount = `mount --bind "$0" "$0" && mount -o remount,bind,ro "$0"`;
  const probe = spawnSync("unshare", ["-rm", "sh", "-c", mount, folder], { stdio: "ignore" });
  if (probe.status !== 0) return undefined;
  return ["unshare", "-rm", "sh", "-c", `${mount} && shift && exec "$@"`, folder, "--"];
}
