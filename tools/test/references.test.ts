import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "./_scratch.js";

// `pnpm typecheck` is `tsc -b` over project references: each package is checked once and read
// by the others through its declarations. A workspace dependency without its reference still
// type-checks (its sources are pulled into the program again), only slower, so this keeps them equal.

/** A package's tsconfig.json, its `//` comments left out. */
const tsconfigOf = (folder: string): { references?: { path: string }[] } =>
  JSON.parse(
    readFileSync(join(REPO, "packages", folder, "tsconfig.json"), "utf8").replace(
      /^\s*\/\/.*$/gm,
      "",
    ),
  );

describe("the typecheck's project references", () => {
  it("name exactly each package's workspace dependencies, and the root names every package", () => {
    const folders = readdirSync(join(REPO, "packages")).sort();
    const byName = new Map(
      folders.map((folder) => [
        JSON.parse(readFileSync(join(REPO, "packages", folder, "package.json"), "utf8")).name,
        folder,
      ]),
    );
    for (const folder of folders) {
      const manifest = JSON.parse(
        readFileSync(join(REPO, "packages", folder, "package.json"), "utf8"),
      );
      const dependencies = [
        ...new Set([
          ...Object.keys(manifest.dependencies ?? {}),
          ...Object.keys(manifest.devDependencies ?? {}),
        ]),
      ]
        .flatMap((name) => byName.get(name) ?? [])
        .map((dependency) => `../${dependency}`)
        .sort();
      const referenced = (tsconfigOf(folder).references ?? []).map((one) => one.path).sort();
      expect(referenced, folder).toEqual(dependencies);
    }
    const root = JSON.parse(readFileSync(join(REPO, "tsconfig.json"), "utf8")) as {
      references: { path: string }[];
    };
    expect(root.references.map((one) => one.path).sort()).toEqual(
      folders.map((folder) => `packages/${folder}`),
    );
  });
});
