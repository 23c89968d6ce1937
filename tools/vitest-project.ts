import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

/**
 * Timeouts here are hang guards, not speed checks: a loaded CI machine may run a test many times
 * slower than a quiet one, and that must never fail it. Speed is measured in `pnpm bench`.
 */
const HANG_GUARD_MS = 120_000;

/** The vitest project of one workspace folder: its tests, resolved from source, with hang-guard timeouts. */
export function workspaceProject(
  name: string,
  options: { fromSource?: boolean; include?: readonly string[] } = {},
) {
  const source = options.fromSource === false ? {} : { resolve: { alias: sourceAliases() } };
  return defineProject({
    ...source,
    test: {
      name,
      include: [...(options.include ?? ["test/**/*.test.ts"])],
      environment: "node",
      testTimeout: HANG_GUARD_MS,
      hookTimeout: HANG_GUARD_MS,
    },
  });
}

/**
 * Each workspace package's entries (`@skillshelf/audit/sarif` too) and private imports
 * (`#yaml-library`) mapped to the TypeScript their `source` condition names. Only ours: a
 * dependency whose own `source` condition names TypeScript (eventsource-parser, under the MCP
 * SDK) is left to Node, as in production.
 */
function sourceAliases(): { find: RegExp; replacement: string }[] {
  const packages = join(dirname(fileURLToPath(import.meta.url)), "..", "packages");
  const aliases: { find: RegExp; replacement: string }[] = [];
  for (const folder of readdirSync(packages)) {
    let manifest: {
      name?: string;
      exports?: Record<string, { source?: string } | string>;
      imports?: Record<string, { source?: string } | string>;
    };
    try {
      manifest = JSON.parse(readFileSync(join(packages, folder, "package.json"), "utf8"));
    } catch {
      continue;
    }
    for (const [entry, conditions] of Object.entries(manifest.exports ?? {})) {
      if (typeof conditions !== "object" || conditions.source === undefined) continue;
      const id = `${manifest.name}${entry.slice(1)}`;
      aliases.push({
        find: new RegExp(`^${id.replace(/[/.]/g, "\\$&")}$`),
        replacement: join(packages, folder, conditions.source),
      });
    }
    for (const [name, conditions] of Object.entries(manifest.imports ?? {})) {
      if (typeof conditions !== "object" || conditions.source === undefined) continue;
      aliases.push({
        find: new RegExp(`^${name}$`),
        replacement: join(packages, folder, conditions.source),
      });
    }
  }
  return aliases;
}
