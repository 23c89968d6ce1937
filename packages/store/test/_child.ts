import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChildRun, runNodeChild } from "@skillshelf/test-utils";

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");

/**
 * Run `body` in a separate Node process with the built store (`store`), its test-only fault hook
 * (`withFaultHook`) and `args` in scope. Needs `pnpm build` first, as the CLI tests do.
 */
export function runStoreChild(
  body: string,
  args: unknown,
  options: { readonly timeoutMs?: number; readonly wrapper?: readonly string[] | undefined } = {},
): Promise<ChildRun> {
  if (!existsSync(join(DIST, "testing.js")))
    throw new Error(`${DIST} is missing; run pnpm build first`);
  return runNodeChild({
    imports: {
      storeReaders: join(DIST, "index.js"),
      storeWriters: join(DIST, "writers.js"),
      "{ withFaultHook }": join(DIST, "testing.js"),
      "{ existsSync, writeFileSync }": "node:fs",
      fs: "node:fs",
    },
    // the package's two entries as one `store`
    body: `const store = { ...storeReaders, ...storeWriters };\n${body}`,
    args,
    ...options,
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
