import { spawn } from "node:child_process";
import { createServer } from "node:net";

/** A server process the tests started, and how to stop it (idempotent). */
export interface Daemon {
  close(): Promise<void>;
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Start `command` and wait until `ready` says it serves (asked every 100 ms; a failed ask is a
 * no); a process that ends first is reported with what it printed.
 */
export async function startDaemon(
  command: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly ready: () => Promise<boolean>;
  },
): Promise<Daemon> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  try {
    await spawned;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${command} did not start:\n${output}`);
      if (await options.ready().catch(() => false)) return { close };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await close();
    throw error;
  }
}
