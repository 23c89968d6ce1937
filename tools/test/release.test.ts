import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { type NpmRegistry, startNpmRegistry } from "@skillshelf/test-utils";
import { publint } from "publint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileStrictly, REPO, runQuietly, tsBlocks } from "./_scratch.js";

// Issue 57, item 5: the release path is `changeset version` then `changeset publish`. This test
// takes it from a copy of the built workspace to a real npm registry (Verdaccio, on loopback),
// lints what landed there as the registry serves it, and installs it by name into a new project.

const temp = mkdtempSync(join(tmpdir(), "skillshelf-release-"));
const workspace = join(temp, "workspace");
const changesets = join(REPO, "node_modules", "@changesets", "cli", "bin.js");

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly repository?: { readonly directory?: string };
}

const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/** The workspace's packages that are published, as the copy has them after `changeset version`. */
let published: Manifest[] = [];
/** Each published package's version, by name. */
let versionOf = new Map<string, string>();

/**
 * A copy of the built workspace as a release runs in it: the root's manifests and lockfile (by
 * which changesets knows to publish with pnpm), the pending changesets, and each package's
 * manifest, README, licence, dist and links. Tools come from the repository's node_modules.
 */
function copyWorkspace(): void {
  mkdirSync(workspace);
  for (const name of ["package.json", "pnpm-workspace.yaml", "pnpm-lock.yaml", ".changeset"])
    cpSync(join(REPO, name), join(workspace, name), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(workspace, "node_modules"));
  for (const folder of readdirSync(join(REPO, "packages"))) {
    const from = join(REPO, "packages", folder);
    // node_modules as links: pnpm publish reads the versions of workspace dependencies there
    for (const part of ["package.json", "README.md", "LICENSE", "dist", "node_modules"])
      if (existsSync(join(from, part)))
        cpSync(join(from, part), join(workspace, "packages", folder, part), {
          recursive: true,
          verbatimSymlinks: true,
        });
  }
}

/** Run a release step in the copy; it must succeed. */
function release(args: readonly string[], env: NodeJS.ProcessEnv): void {
  const ran = spawnSync(process.execPath, [changesets, ...args], {
    cwd: workspace,
    encoding: "utf8",
    // changesets publishes with pnpm: the pinned one `npm test` puts in .tools/ when PATH has none
    env: {
      PATH: `${join(REPO, ".tools", "node_modules", ".bin")}${delimiter}${process.env.PATH}`,
      HOME: temp,
      ...env,
    },
  });
  expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(0);
}

/** GET `url` with the registry's token, on a connection of its own (none is kept between calls). */
function registryGet(url: string, token: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          response.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`${url} answered ${response.statusCode}`)),
        );
      },
    );
    request.on("error", reject);
  });
}

/** The tarball of `name@version` as the registry serves it. */
async function tarballOf(registry: NpmRegistry, name: string, version: string) {
  const document = JSON.parse(
    (await registryGet(`${registry.url}${name.replace("/", "%2f")}`, registry.token)).toString(
      "utf8",
    ),
  ) as { versions: Record<string, { dist: { tarball: string } }> };
  const url = document.versions[version]?.dist.tarball;
  if (url === undefined) throw new Error(`${name}@${version} is not on the registry`);
  return new Uint8Array(await registryGet(url, registry.token));
}

/** The bytes of every file under `dir`, as installed (links not followed). */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** The README's harness in one module format: `.mts` (ES module) or `.cts` (CommonJS). */
const harness = (format: string) => `import { buildCatalogView } from "@skillshelf/catalog-view";
import { createSkillCache, loadSkills, modelVisibleSkills } from "@skillshelf/skills-loader";

const { items } = loadSkills({ cwd: process.cwd(), home: process.cwd(), env: {}, host: "claude-code", cache: createSkillCache() });
const text: string = buildCatalogView({ skills: modelVisibleSkills(items), budget: 4096 }).text;
console.log(JSON.stringify({ format: "${format}", names: items.map((skill) => skill.name), listed: text.includes("deploy") }));
`;

let registry: NpmRegistry | undefined;
afterAll(async () => {
  await registry?.close();
  rmSync(temp, { recursive: true, force: true });
});

describe("the published manifests (issue 57, item 5)", () => {
  it("publish the workspace's exports without its `source` condition, and the root's licence", () => {
    const strip = (map: Record<string, unknown> = {}) =>
      JSON.parse(JSON.stringify(map, (key, value) => (key === "source" ? undefined : value)));
    for (const folder of readdirSync(join(REPO, "packages"))) {
      const dir = join(REPO, "packages", folder);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (manifest.private === true) continue;
      expect(manifest.publishConfig.exports, folder).toEqual(strip(manifest.exports));
      expect(manifest.publishConfig.imports, folder).toEqual(
        manifest.imports && strip(manifest.imports),
      );
      expect(readFileSync(join(dir, "LICENSE"), "utf8"), folder).toBe(
        readFileSync(join(REPO, "LICENSE"), "utf8"),
      );
    }
  });
});

describe("the release path (issue 57, item 5)", () => {
  beforeAll(async () => {
    registry = await startNpmRegistry();
    copyWorkspace();
    release(["version"], {});
    published = readdirSync(join(workspace, "packages"))
      .map((folder) => manifestOf(join(workspace, "packages", folder)))
      .filter((manifest) => manifest.private !== true);
    versionOf = new Map(published.map((manifest) => [manifest.name, manifest.version]));
    // where a company publishes: its registry, by the usual npm settings
    writeFileSync(join(workspace, ".npmrc"), `registry=${registry.url}\n${registry.authLine}\n`);
    release(["publish", "--no-git-tag"], { npm_config_registry: registry.url });
  }, 600_000);

  it("versions every package from the pending changesets", () => {
    const versions = [...versionOf.values()];
    expect(versions.length).toBe(19);
    expect(versions.filter((version) => version === "0.0.0")).toEqual([]);
    expect(
      readdirSync(join(workspace, ".changeset")).filter((name) => name.endsWith(".md")),
    ).toEqual([]);
    expect(existsSync(join(workspace, "packages", "core", "CHANGELOG.md"))).toBe(true);
  });

  it("publishes every package as publint and arethetypeswrong pass it, CommonJS included", async () => {
    if (registry === undefined) throw new Error("no registry");
    for (const manifest of published) {
      const tarball = await tarballOf(registry, manifest.name, manifest.version);
      const linted = await publint({ pack: { tarball: tarball.slice().buffer }, strict: true });
      expect(linted.messages, manifest.name).toEqual([]);
      const pkg = createPackageFromTarballData(tarball);
      const checked = await checkPackage(pkg);
      expect(checked.types, manifest.name).not.toBe(false);
      expect("problems" in checked ? checked.problems : [], manifest.name).toEqual([]);
      const files = pkg.listFiles();
      expect(files, manifest.name).toContain(`/node_modules/${manifest.name}/LICENSE`);
      // what it depends on of ours is the version published beside it, never a path
      const shipped: Manifest = JSON.parse(
        pkg.readFile(`/node_modules/${manifest.name}/package.json`),
      );
      expect(shipped.repository?.directory, manifest.name).toMatch(/^packages\//);
      for (const [name, range] of Object.entries(shipped.dependencies ?? {}))
        if (name.startsWith("@skillshelf/"))
          expect(range, `${manifest.name} → ${name}`).toBe(versionOf.get(name));
      expect(JSON.stringify(shipped)).not.toMatch(/"(?:file|workspace):|\.\/src\//);
    }
  }, 300_000);

  it("installs by name and version into a new project, which runs the READMEs from ESM and CommonJS", () => {
    if (registry === undefined) throw new Error("no registry");
    const project = join(temp, "project");
    mkdirSync(join(project, ".claude", "skills", "deploy"), { recursive: true });
    writeFileSync(
      join(project, ".claude", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the app.\n---\nShip it carefully.\n",
    );
    writeFileSync(join(project, "package.json"), '{ "name": "consumer", "private": true }\n');
    // ours from the company's registry, the rest from npm's
    writeFileSync(
      join(project, ".npmrc"),
      `@skillshelf:registry=${registry.url}\n${registry.authLine}\n`,
    );
    const installed = runQuietly(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        ...["skills-loader", "resources", "catalog-view"].map(
          (name) => `@skillshelf/${name}@${versionOf.get(`@skillshelf/${name}`)}`,
        ),
      ],
      project,
    );
    expect(installed.stderr).toBe("");
    expect(installed.status).toBe(0);
    writeFileSync(join(project, "harness.mts"), harness("esm"));
    writeFileSync(join(project, "harness.cts"), harness("cjs"));
    const readmes = ["skills-loader", "resources"].flatMap((folder) =>
      tsBlocks(`packages/${folder}/README.md`).map((block, index) => {
        writeFileSync(join(project, `${folder}-${index}.mts`), `${block}\nexport {};\n`);
        return `${folder}-${index}`;
      }),
    );
    const compiled = compileStrictly(
      project,
      ["harness.mts", "harness.cts", ...readmes.map((name) => `${name}.mts`)],
      { outDir: "out", skipLibCheck: false },
    );
    expect(compiled.stdout).toBe("");
    expect(compiled.status).toBe(0);
    // CommonJS under node16 too, which cannot `require` an ES module: it takes the CommonJS build
    const node16 = compileStrictly(project, ["harness.cts"], {
      module: "node16",
      noEmit: true,
      skipLibCheck: false,
    });
    expect(node16.stdout).toBe("");
    expect(node16.status).toBe(0);
    for (const [file, format] of [
      ["harness.mjs", "esm"],
      ["harness.cjs", "cjs"],
    ] as const) {
      const ran = runQuietly(process.execPath, [join("out", file)], project);
      expect(ran.status, ran.stderr).toBe(0);
      expect(JSON.parse(ran.stdout)).toEqual({ format, names: ["deploy"], listed: true });
    }
    const printed = readmes.map((name) => {
      const ran = runQuietly(process.execPath, [join("out", `${name}.mjs`)], project);
      expect(ran.status, ran.stderr).toBe(0);
      return ran.stdout;
    });
    expect(printed.join("")).toMatch(/Ship it carefully\./);
  }, 300_000);

  it("keeps @skillshelf/resources light: nothing that fetches, installs or serves, at most 5 MB (item 2)", () => {
    if (registry === undefined) throw new Error("no registry");
    const project = join(temp, "light");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), '{ "name": "light", "private": true }\n');
    writeFileSync(
      join(project, ".npmrc"),
      `@skillshelf:registry=${registry.url}\n${registry.authLine}\n`,
    );
    const version = versionOf.get("@skillshelf/resources");
    const installed = runQuietly(
      "npm",
      ["install", "--no-audit", "--no-fund", `@skillshelf/resources@${version}`],
      project,
    );
    expect(installed.status, installed.stderr).toBe(0);
    const listed = runQuietly("npm", ["ls", "--all", "--parseable"], project);
    // the first line is the project itself
    const packages = listed.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((path) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(packages.length).toBeLessThanOrEqual(20);
    // ours, and the YAML parser (the validator is built into store and recipes-loader)
    expect(packages.filter((name) => !name.startsWith("@skillshelf/")).sort()).toEqual(["yaml"]);
    expect(bytesUnder(join(project, "node_modules"))).toBeLessThanOrEqual(5_000_000);
  }, 300_000);
});
