import { defineProject } from "vitest/config";

/**
 * Timeouts here are hang guards, not speed checks: a loaded CI machine may run a test many times
 * slower than a quiet one, and that must never fail it. Speed is measured in `pnpm bench`.
 */
const HANG_GUARD_MS = 120_000;

/** The vitest project of one workspace folder: its tests, resolved from source, with hang-guard timeouts. */
export function workspaceProject(name: string, options: { fromSource?: boolean } = {}) {
  const source =
    options.fromSource === false
      ? {}
      : { resolve: { conditions: ["source"] }, ssr: { resolve: { conditions: ["source"] } } };
  return defineProject({
    ...source,
    test: {
      name,
      include: ["test/**/*.test.ts"],
      environment: "node",
      testTimeout: HANG_GUARD_MS,
      hookTimeout: HANG_GUARD_MS,
    },
  });
}
