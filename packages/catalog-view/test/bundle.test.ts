import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGES = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The file an import of `@skillshelf/<name>[/entry]` loads, by its package's `import` condition. */
function workspaceEntry(specifier: string): string {
  const [, name = "", ...entry] = specifier.split("/");
  const manifest = JSON.parse(readFileSync(join(PACKAGES, name, "package.json"), "utf8"));
  const conditions = manifest.exports[entry.length === 0 ? "." : `./${entry.join("/")}`];
  return join(PACKAGES, name, conditions.import.default);
}

/**
 * Every package outside the workspace that importing `entry` loads, following the built files'
 * static imports as a bundler would: what a bundle of that import cannot leave out.
 */
function externalImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const externals = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(
      /(?:^|[;\n])\s*(?:import|export)\s[^;]*?from\s*"([^"]+)"|(?:^|[;\n])\s*import\s*"([^"]+)"/g,
    )) {
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier));
      else if (specifier.startsWith("@skillshelf/")) pending.push(workspaceEntry(specifier));
      else if (!specifier.startsWith("node:")) externals.add(specifier.split("/")[0] ?? specifier);
    }
  }
  return externals;
}

describe("a listing-only import (issue 30, item 8)", () => {
  it("does not carry the YAML parser", () => {
    const entry = workspaceEntry("@skillshelf/catalog-view");
    expect(existsSync(entry), "build the workspace first (pnpm build)").toBe(true);
    expect([...externalImports(entry)]).toEqual([]);
    // the walk does see a package where one is imported (the sources' schemas)
    expect([...externalImports(workspaceEntry("@skillshelf/sources"))]).toContain("zod");
  });
});
