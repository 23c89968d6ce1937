import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SCRIPT = join(REPO, "tools", "check-layers.mjs");
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Manifest = {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  exports?: Record<string, unknown>;
};

/** A small workspace using the real layers.json: core (L0), skills-loader (L2), cli (L6), test-utils. */
function workspace(
  files: Record<string, string> = {},
  manifests: Record<string, Manifest> = {},
): string {
  const root = mkdtempSync(join(tmpdir(), "skillshelf-layers-"));
  made.push(root);
  cpSync(join(REPO, "layers.json"), join(root, "layers.json"));
  const base: Record<string, Manifest> = {
    core: {},
    "skills-loader": {
      dependencies: { "@skillshelf/core": "workspace:*" },
      devDependencies: { "@skillshelf/test-utils": "workspace:*" },
    },
    cli: {
      dependencies: {
        "@skillshelf/core": "workspace:*",
        "@skillshelf/skills-loader": "workspace:*",
      },
    },
    "test-utils": {},
    ...manifests,
  };
  for (const [folder, manifest] of Object.entries(base)) {
    const json = { name: `@skillshelf/${folder}`, exports: { ".": "./src/index.ts" }, ...manifest };
    write(root, `packages/${folder}/package.json`, JSON.stringify(json));
    write(root, `packages/${folder}/src/index.ts`, "export const x = 1;\n");
  }
  write(
    root,
    "packages/skills-loader/src/load.ts",
    'import { x } from "@skillshelf/core";\nexport const y = x;\n',
  );
  write(
    root,
    "packages/skills-loader/test/load.test.ts",
    'import { testdir } from "@skillshelf/test-utils";\nimport "@skillshelf/skills-loader";\n',
  );
  for (const [path, content] of Object.entries(files)) write(root, path, content);
  return root;
}

function write(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

function check(root: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [SCRIPT, "--root", root], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("the layering check", () => {
  it("passes on this repository", () => {
    const result = check(REPO);
    expect(result.output).toMatch(/no violations/);
    expect(result.status).toBe(0);
  });

  it("passes on a clean workspace", () => {
    expect(check(workspace())).toMatchObject({ status: 0 });
  });

  it("lets a test run a loader directly", () => {
    const test =
      'import { loadSkills } from "@skillshelf/skills-loader";\nexport const x = loadSkills;\n';
    expect(check(workspace({ "packages/cli/test/load.test.ts": test }))).toMatchObject({
      status: 0,
    });
  });

  it.each([
    [
      "an upward dependency declared in package.json",
      {},
      { core: { dependencies: { "@skillshelf/skills-loader": "workspace:*" } } },
      "packages/core/package.json dependencies @skillshelf/skills-loader: core (L0) → skills-loader (L2) points up",
    ],
    [
      "a sideways dependency declared in package.json",
      {},
      {
        "skills-loader": {
          dependencies: {
            "@skillshelf/core": "workspace:*",
            "@skillshelf/catalog-view": "workspace:*",
          },
        },
      },
      "skills-loader (L2) → catalog-view (L2) points sideways",
    ],
    [
      "an upward import in code, even when declared",
      { "packages/skills-loader/src/bad.ts": 'import "@skillshelf/cli";\n' },
      {
        "skills-loader": {
          dependencies: { "@skillshelf/core": "workspace:*", "@skillshelf/cli": "workspace:*" },
        },
      },
      "packages/skills-loader/src/bad.ts imports @skillshelf/cli: skills-loader (L2) → cli (L7) points up",
    ],
    [
      "an import of a package that is not declared",
      { "packages/cli/src/bad.ts": 'export * from "@skillshelf/test-utils";\n' },
      {},
      "packages/cli/src/bad.ts imports @skillshelf/test-utils, which @skillshelf/cli does not declare in dependencies",
    ],
    [
      "a dynamic import reaching up",
      { "packages/core/src/bad.ts": 'export const load = () => import("@skillshelf/cli");\n' },
      { core: { dependencies: { "@skillshelf/cli": "workspace:*" } } },
      "packages/core/src/bad.ts imports @skillshelf/cli: core (L0) → cli (L7) points up",
    ],
    [
      "a relative import into another package",
      { "packages/cli/src/bad.ts": 'import "../../core/src/index.ts";\n' },
      {},
      "packages/cli/src/bad.ts imports ../../core/src/index.ts: reaches into another package",
    ],
    [
      "a deep import past the exports map",
      { "packages/cli/src/bad.ts": 'import "@skillshelf/core/src/internal.js";\n' },
      {},
      "imports @skillshelf/core/src/internal.js: not an export of @skillshelf/core",
    ],
    [
      "test-utils as a runtime dependency",
      {},
      {
        cli: {
          dependencies: {
            "@skillshelf/core": "workspace:*",
            "@skillshelf/test-utils": "workspace:*",
          },
        },
      },
      "test-utils may only be a devDependency, used from test code",
    ],
    [
      "a loader run outside the read pass (imported by name, or renamed)",
      {
        "packages/cli/src/bad.ts":
          'import { loadSkills as load } from "@skillshelf/skills-loader";\nexport const x = load;\n',
      },
      {},
      "packages/cli/src/bad.ts imports loadSkills: only resources, registry may",
    ],
    [
      "a package missing from the layer map",
      { "packages/mystery/package.json": '{"name":"@skillshelf/mystery"}' },
      {},
      "@skillshelf/mystery has no layer in layers.json",
    ],
  ])("fails on %s", (_name, files, manifests, message) => {
    const result = check(workspace(files, manifests));
    expect(result.status).toBe(1);
    expect(result.output).toContain(message);
  });
});
