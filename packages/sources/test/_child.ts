import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChildRun, runNodeChild } from "@skillshelf/test-utils";

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "index.js");

/**
 * Run `body` (an async module body with the built `sources` and `args` in scope) in a separate
 * Node process, killed after `timeoutMs`: a synchronous loop that never ends cannot hang the
 * test run. Needs `pnpm build` first, as the CLI tests do.
 */
export function runSourcesChild(
  body: string,
  args: unknown,
  options: { readonly timeoutMs: number; readonly env?: Record<string, string> },
): Promise<ChildRun> {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing; run pnpm build first`);
  return runNodeChild({ imports: { sources: DIST }, body, args, ...options });
}
