import { readdirSync } from "node:fs";
import { resolveEnvironment } from "@skillshelf/core";
import {
  askNewest,
  npmConfig,
  parseSourceUrl,
  readCollection,
  type StageOptions,
  sourcePinnedAt,
  stageSource,
} from "@skillshelf/sources";
import { type NpmRegistry, skillFile, startNpmRegistry, testdir } from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillNames, sourceOf, stageFailure } from "./_staging.js";

/** A folder `npm publish` takes: a package.json and `files`. */
function npmPackage(name: string, version: string, files: Record<string, string>, extra = {}) {
  return testdir({
    "package.json": JSON.stringify({ name, version, ...extra }),
    ...files,
  });
}

/** How an .npmrc names the token's variable. */
const TOKEN_VARIABLE = ["$", "{NPM_TOKEN}"].join("");
let registry: NpmRegistry;

beforeAll(async () => {
  registry = await startNpmRegistry();
  const skills = (steps: string) => ({
    "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files.", "", `# pdf\n\n${steps}\n`),
    "skills/deploy/SKILL.md": skillFile("deploy", "Deploy the site."),
  });
  await registry.publish(npmPackage("@team/skills", "1.0.0", skills("One step.")));
  await registry.publish(npmPackage("@team/skills", "1.1.0", skills("Two steps.")));
  await registry.publish(
    npmPackage(
      "@team/declared",
      "1.0.0",
      {
        "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
        "examples/demo/SKILL.md": skillFile("demo", "Only an example."),
      },
      { skills: ["./skills/pdf"] },
    ),
  );
}, 120_000);

afterAll(() => registry?.close());

/** Stage options as the CLI gives them: the user's own .npmrc, naming the registry for @team and its token. */
function userOptions(token = TOKEN_VARIABLE, tokenValue = registry.token): StageOptions {
  const home = testdir({
    ".npmrc": `@team:registry=${registry.url}\n${registry.authLine.replace(registry.token, token)}\n`,
  });
  const environment = resolveEnvironment({ cwd: home, home, env: { NPM_TOKEN: tokenValue } });
  return { npm: npmConfig(environment), tempDir: testdir() };
}

describe("npm packages as sources (issue 27, item 1)", () => {
  it("reads npm:<name>[@range]//<folder>, and refuses specs that are not a registry's", () => {
    expect(sourceOf("npm:@team/skills@^1.0.0//skills/pdf")).toEqual({
      type: "npm",
      name: "@team/skills",
      range: "^1.0.0",
      path: "skills/pdf",
    });
    expect(sourceOf("npm:left-pad")).toEqual({ type: "npm", name: "left-pad" });
    expect(sourceOf("npm:left-pad@beta")).toEqual({ type: "npm", name: "left-pad", range: "beta" });
    expect(sourceOf("npm:left-pad@1.3.0")).toEqual({
      type: "npm",
      name: "left-pad",
      range: "1.3.0",
    });
    for (const text of [
      "npm:git+https://example.com/x.git",
      "npm:./folder",
      "npm:Not A Name",
      "npm:github:owner/repo",
      "npm:owner/repo",
      "npm:left-pad@file:../x",
      "npm:left-pad@git+https://example.com/x.git",
      "npm:left-pad@npm:other@1",
      "npm:left-pad@https://example.com/x.tgz",
    ]) {
      const parsed = parseSourceUrl(text, "/");
      expect(parsed.ok ? parsed.source : parsed.code).toBe("source_invalid");
    }
  });

  it("fetches the newest version in the range with the user's .npmrc, and pins version and integrity", async () => {
    const options = userOptions();
    const staged = await stageSource(sourceOf("npm:@team/skills@^1.0.0"), options);
    try {
      expect(staged.commit).toMatch(/^1\.1\.0@sha512-/);
      expect(skillNames(staged.dir)).toEqual(["deploy", "pdf"]);
    } finally {
      staged.release();
    }
    const narrowed = await stageSource(sourceOf("npm:@team/skills@~1.0.0//skills/pdf"), options);
    try {
      expect(narrowed.commit).toMatch(/^1\.0\.0@sha512-/);
      expect(readdirSync(narrowed.dir)).toEqual(["SKILL.md"]);
      // what the lock pins fetches that version again, checked against that integrity
      const again = await stageSource(
        sourcePinnedAt(sourceOf("npm:@team/skills@^1.0.0//skills/pdf"), narrowed.commit),
        options,
      );
      expect(again.digest).toBe(narrowed.digest);
      again.release();
    } finally {
      narrowed.release();
    }
    expect(readdirSync(options.tempDir as string)).toEqual([]);
  });

  it("refuses a tarball that is not the integrity a lock pinned, writing nothing", async () => {
    const options = userOptions();
    const pinned = sourcePinnedAt(sourceOf("npm:@team/skills"), `1.0.0@sha512-${"A".repeat(86)}==`);
    expect((await stageFailure(pinned, options))?.code).toBe("digest_mismatch");
    expect(readdirSync(options.tempDir as string)).toEqual([]);
  });

  it("tells whether a newer version is in the range without fetching it", async () => {
    const options = userOptions();
    expect((await askNewest(sourceOf("npm:@team/skills@^1.0.0"), options))?.commit).toMatch(
      /^1\.1\.0@sha512-/,
    );
    expect((await askNewest(sourceOf("npm:@team/skills@~1.0.0"), options))?.commit).toMatch(
      /^1\.0\.0@sha512-/,
    );
    expect(await askNewest(sourceOf("npm:@team/skills@^2.0.0"), options)).toEqual({
      commit: undefined,
    });
  });

  it("stages only the folders a package.json skills field names", async () => {
    const staged = await stageSource(sourceOf("npm:@team/declared"), userOptions());
    try {
      expect(readCollection(staged.dir).skills.map((skill) => skill.path)).toEqual(["skills/pdf"]);
    } finally {
      staged.release();
    }
  });

  it("names the registry that asks for credentials, refuses others, and a package it lacks", async () => {
    const host = new URL(registry.url).host;
    const without = await stageFailure(sourceOf("npm:@team/skills"), userOptions("", ""));
    expect(without).toMatchObject({ code: "auth_required", details: { host } });
    const wrong = await stageFailure(
      sourceOf("npm:@team/skills"),
      userOptions(TOKEN_VARIABLE, "bad"),
    );
    expect(wrong).toMatchObject({ code: "auth_refused", details: { host } });
    for (const outcome of [without, wrong])
      expect(JSON.stringify(outcome)).not.toContain(registry.token);
    expect((await stageFailure(sourceOf("npm:@team/nothing"), userOptions()))?.code).toBe(
      "npm_package_missing",
    );
    expect((await stageFailure(sourceOf("npm:@team/skills@^9"), userOptions()))?.code).toBe(
      "npm_version_missing",
    );
  });

  it("refuses a registry over plain http to another host, asking nothing of it", async () => {
    const home = testdir({ ".npmrc": "registry=http://registry.example.com/\n" });
    const environment = resolveEnvironment({ cwd: home, home, env: {} });
    const refused = await stageFailure(sourceOf("npm:left-pad"), { npm: npmConfig(environment) });
    expect(refused).toMatchObject({
      code: "source_insecure",
      details: { spec: "left-pad@latest" },
    });
  });
});
