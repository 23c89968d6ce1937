import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { publish } from "@skillshelf/publish";
import { stageSource } from "@skillshelf/sources";
import { bareClone, gitEnv, gitRepo, link, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

function collection(): string {
  return testdir({
    "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files.", "metadata:\n  version: 1.2.0\n"),
    "skills/deploy/SKILL.md": skillFile(
      "deploy",
      "Deploy the site.",
      "metadata:\n  version: 0.3.0\n",
    ),
    "skills/deploy/scripts/run.sh": { content: "echo run\n", mode: 0o755 },
  });
}

describe("publish to a git repository (issue 27, item 5)", () => {
  it("commits each skill under skills/, tags <name>@<version>, pushes, and installs back at the tag", async () => {
    const env = gitEnv();
    const bare = bareClone(gitRepo([{ tree: { "README.md": "Team skills.\n" } }], env).path, env);
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", bare, ...args], { env, encoding: "utf8" }).trim();
    const environment = { cwd: testdir(), home: env.HOME, env };
    const before = git("rev-parse", "main");
    const dry = await publish({
      folder: collection(),
      destination: `git+${bare}`,
      dryRun: true,
      environment,
    });
    expect(dry.artifacts.map((artifact) => artifact.location)).toEqual([
      `${bare}//skills/deploy#deploy@0.3.0`,
      `${bare}//skills/pdf#pdf@1.2.0`,
    ]);
    expect(git("rev-parse", "main")).toBe(before);

    const result = await publish({ folder: collection(), destination: `git+${bare}`, environment });
    expect(result.published).toBe(true);
    expect(git("tag", "--list").split("\n").sort()).toEqual(["deploy@0.3.0", "pdf@1.2.0"]);
    expect(git("log", "-1", "--format=%s", "main")).toBe("Publish deploy@0.3.0, pdf@1.2.0");
    for (const skill of result.skills) {
      const tag = skill.name === "pdf" ? "pdf@1.2.0" : "deploy@0.3.0";
      const staged = await stageSource(
        { type: "git", url: bare, ref: tag, path: `skills/${skill.name}` },
        { env },
      );
      try {
        expect(`sha256:${staged.digest}`).toBe(skill.digest);
      } finally {
        staged.release();
      }
    }

    // a published version does not change: the same tag again is refused, nothing pushed
    const after = git("rev-parse", "main");
    await expect(
      publish({ folder: collection(), destination: `git+${bare}`, environment }),
    ).rejects.toMatchObject({
      code: "publish_tag_exists",
      details: { tag: "deploy@0.3.0" },
    });
    expect(git("rev-parse", "main")).toBe(after);
  });

  it("tags a skill with no version of its own at its package's version, and says no size (issue 52, item 10)", async () => {
    const env = gitEnv();
    const bare = bareClone(gitRepo([{ tree: { "README.md": "Team skills.\n" } }], env).path, env);
    const folder = testdir({
      "plugin.json": JSON.stringify({
        name: "kit",
        version: "1.0.0",
        description: "A kit.",
        extensions: { skillshelf: { manifestVersion: 1, kind: "plugin" } },
      }),
      "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
      "skills/deploy/SKILL.md": skillFile("deploy", "Deploy.", "metadata:\n  version: 0.3.0\n"),
    });
    const environment = { cwd: testdir(), home: env.HOME, env };
    const result = await publish({ folder, destination: `git+${bare}`, environment });
    expect(result.artifacts.map((artifact) => [artifact.location, artifact.bytes])).toEqual([
      [`${bare}//skills/deploy#deploy@0.3.0`, undefined],
      [`${bare}//skills/pdf#pdf@1.0.0`, undefined],
    ]);
  });

  it("tags one skill's folder at the version of the package that holds it (issue 53, item 2)", async () => {
    const env = gitEnv();
    const bare = bareClone(gitRepo([{ tree: { "README.md": "Team skills.\n" } }], env).path, env);
    const kit = testdir({
      ".claude-plugin/plugin.json": JSON.stringify({ name: "kit", version: "1.0.0" }),
      "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
      // a manifest two folders up that does not hold the skill says nothing about it
      "other/plugin.json": JSON.stringify({ name: "other", version: "9.9.9" }),
      "other/loose/pdf2/SKILL.md": skillFile("pdf2", "Read more PDF files."),
    });
    const environment = { cwd: testdir(), home: env.HOME, env };
    const tagged = async (folder: string) =>
      (
        await publish({ folder, destination: `git+${bare}`, environment, dryRun: true })
      ).artifacts.map((artifact) => artifact.location.split("#")[1]);
    expect(await tagged(join(kit, "skills/pdf"))).toEqual(["pdf@1.0.0"]);
    expect(await tagged(join(kit, "other/loose/pdf2"))).toEqual(["pdf2@0.0.0"]);
  });

  it("writes an index named inside the repository, and refuses --index for a site", async () => {
    const env = gitEnv();
    const bare = bareClone(gitRepo([{ tree: { "README.md": "Team skills.\n" } }], env).path, env);
    const environment = { cwd: testdir(), home: env.HOME, env };
    const from = testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    const result = await publish({
      folder: from,
      destination: `git+${bare}`,
      index: "catalog/library.yaml",
      environment,
    });
    expect(result.artifacts.map((artifact) => artifact.location)).toEqual([
      `${bare}//skills/pdf#pdf@0.0.0`,
      `${bare}//catalog/library.yaml`,
    ]);
    const index = execFileSync("git", ["-C", bare, "show", "main:catalog/library.yaml"], {
      env,
      encoding: "utf8",
    });
    expect(index).toContain("sourceUrl: ../skills/pdf");
    await expect(
      publish({
        folder: from,
        destination: `site:${testdir()}`,
        index: "library.yaml",
        environment,
      }),
    ).rejects.toMatchObject({ code: "publish_index_unsupported" });
    await expect(
      publish({ folder: from, destination: `git+${bare}`, index: "../out.yaml", environment }),
    ).rejects.toMatchObject({ code: "publish_destination_invalid" });
  });

  it("publishes into an empty repository, below the folder and on the branch named", async () => {
    const env = gitEnv();
    const bare = join(testdir(), "empty.git");
    execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare], { env });
    const environment = { cwd: testdir(), home: env.HOME, env };
    const from = testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    const result = await publish({
      folder: from,
      destination: `git+${bare}//team/skills`,
      environment,
    });
    expect(result.published).toBe(true);
    expect(
      execFileSync("git", ["-C", bare, "ls-tree", "-r", "--name-only", "main"], {
        env,
        encoding: "utf8",
      }).trim(),
    ).toBe("team/skills/pdf/SKILL.md");
  });

  it("never writes through a link the repository holds where the skills go", async () => {
    const env = gitEnv();
    const outside = testdir();
    const bare = bareClone(gitRepo([{ tree: { skills: link(outside) } }], env).path, env);
    const environment = { cwd: testdir(), home: env.HOME, env };
    const from = testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    await expect(
      publish({ folder: from, destination: `git+${bare}`, environment }),
    ).rejects.toMatchObject({
      code: "publish_destination_invalid",
    });
    expect(readdirSync(outside)).toEqual([]);
  });
});
