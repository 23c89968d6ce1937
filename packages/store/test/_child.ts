import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { testdir } from "@skillshelf/test-utils";

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");

/** How a child process ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run `body` in a separate Node process with the built store (`store`), its test-only fault hook
 * (`withFaultHook`) and `args` in scope. Needs `pnpm build` first, as the CLI tests do.
 */
export function runStoreChild(body: string, args: unknown): Promise<ChildExit> {
  if (!existsSync(join(DIST, "testing.js")))
    throw new Error(`${DIST} is missing; run pnpm build first`);
  const script = join(testdir(), "child.mjs");
  writeFileSync(
    script,
    [
      'import { existsSync, writeFileSync } from "node:fs";',
      `import * as store from ${JSON.stringify(pathToFileURL(join(DIST, "index.js")).href)};`,
      `import { withFaultHook } from ${JSON.stringify(pathToFileURL(join(DIST, "testing.js")).href)};`,
      "const args = JSON.parse(process.argv[2]);",
      "const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);",
      body,
    ].join("\n"),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(args)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Child code: run `attempt` until it does not fail with `locked`, sleeping a little between tries. */
export const RETRY_WHILE_LOCKED = `
function retry(attempt) {
  for (let tries = 0; ; tries++) {
    try {
      return attempt();
    } catch (error) {
      if (error.code !== "locked" || tries > 2000) throw error;
      sleep(5 + Math.floor(Math.random() * 20));
    }
  }
}
`;
