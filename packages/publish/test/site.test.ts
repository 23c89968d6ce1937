import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { isSkillshelfError } from "@skillshelf/core";
import { publish } from "@skillshelf/publish";
import { stageSource } from "@skillshelf/sources";
import { folderRoutes, serve, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

/** A collection of two skills: one a lone SKILL.md, one with a script and an empty folder. */
function collection(): string {
  return testdir({
    "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
    "skills/deploy/SKILL.md": skillFile("deploy", "Deploy the site."),
    "skills/deploy/scripts/run.sh": { content: "echo run\n", mode: 0o755 },
    "skills/deploy/assets": null,
  });
}

const indexOf = (site: string) =>
  JSON.parse(readFileSync(join(site, ".well-known/agent-skills/index.json"), "utf8")) as {
    skills: { name: string; type: string; url: string; digest: string }[];
  };

describe("publish to a static site folder (issue 27, item 5)", () => {
  it("writes the .well-known index with digests, and what it lists installs back to the same tree", async () => {
    const from = collection();
    const site = testdir();
    const result = await publish({ folder: from, destination: `site:${site}` });
    expect(result.published).toBe(true);
    const index = indexOf(site);
    expect(index.skills.map(({ name, type, url }) => ({ name, type, url }))).toEqual([
      { name: "deploy", type: "archive", url: "deploy/deploy.tar.gz" },
      { name: "pdf", type: "skill-md", url: "pdf/SKILL.md" },
    ]);
    const base = await serve(folderRoutes(site));
    for (const skill of result.skills) {
      const staged = await stageSource({ type: "well-known", url: base, path: skill.name });
      const local = await stageSource({ type: "local", path: join(from, "skills", skill.name) });
      try {
        expect(`sha256:${staged.digest}`).toBe(skill.digest);
        expect(staged.digest).toBe(local.digest);
      } finally {
        staged.release();
        local.release();
      }
    }
  });

  it("gives the same bytes when the same tree is published again, and keeps other skills listed", async () => {
    const from = collection();
    const site = testdir();
    await publish({ folder: join(from, "skills/deploy"), destination: `site:${site}` });
    const first = readFileSync(join(site, ".well-known/agent-skills/deploy/deploy.tar.gz"));
    await publish({ folder: join(from, "skills/pdf"), destination: `site:${site}` });
    await publish({ folder: join(from, "skills/deploy"), destination: `site:${site}` });
    expect(readFileSync(join(site, ".well-known/agent-skills/deploy/deploy.tar.gz"))).toEqual(
      first,
    );
    expect(indexOf(site).skills.map((skill) => skill.name)).toEqual(["deploy", "pdf"]);
  });

  it("with --dry-run says what it would write and writes nothing", async () => {
    const site = testdir();
    const result = await publish({
      folder: collection(),
      destination: `site:${site}`,
      dryRun: true,
    });
    expect(result.published).toBe(false);
    expect(result.artifacts.map((artifact) => artifact.location)).toEqual([
      join(site, ".well-known/agent-skills/deploy/deploy.tar.gz"),
      join(site, ".well-known/agent-skills/pdf/SKILL.md"),
      join(site, ".well-known/agent-skills/index.json"),
    ]);
    for (const artifact of result.artifacts)
      expect(artifact.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(readdirSync(site)).toEqual([]);
  });

  it("refuses a folder strict validation refuses, and one with no skill, writing nothing", async () => {
    const site = testdir();
    // strict: a skill's folder is named as the skill is
    const invalid = testdir({ "tools/SKILL.md": skillFile("pdf", "Read PDF files.") });
    const refused = await publish({ folder: invalid, destination: `site:${site}` });
    expect(refused.published).toBe(false);
    expect(refused.diagnostics.map((d) => d.code)).toContain("publish_invalid");
    expect(refused.diagnostics.filter((d) => d.severity === "error").length).toBeGreaterThan(1);
    const empty = await publish({
      folder: testdir({ "README.md": "hi" }),
      destination: `site:${site}`,
    });
    expect(empty.diagnostics.map((d) => d.code)).toEqual(["publish_nothing"]);
    const unnamed = await publish({
      folder: testdir({ "Bad_Name/SKILL.md": "---\nname: Bad_Name\n---\nNo description.\n" }),
      destination: `site:${site}`,
    });
    // the skill left out is validated too: its own error says what to fix
    expect(unnamed.diagnostics.map((d) => d.code)).toEqual([
      "collection_skill_invalid",
      "description_missing",
      "publish_invalid",
    ]);
    expect(readdirSync(site)).toEqual([]);
  });

  it("refuses a destination it cannot read or would write through a link", async () => {
    const code = async (destination: string) => {
      try {
        await publish({ folder: collection(), destination });
      } catch (error) {
        if (isSkillshelfError(error)) return error.code;
        throw error;
      }
      return undefined;
    };
    expect(await code("ftp://example.com/site")).toBe("publish_destination_invalid");
    const broken = testdir({ ".well-known/agent-skills/index.json": "<html>" });
    expect(await code(`site:${broken}`)).toBe("publish_destination_unreadable");
    const elsewhere = testdir();
    const linked = testdir();
    symlinkSync(elsewhere, join(linked, ".well-known"));
    expect(await code(`site:${linked}`)).toBe("publish_destination_invalid");
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
