import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { link, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { createFileCache, skillFiles } from "../src/_files.js";
import { parseSkillUri, skillUri } from "../src/_uri.js";

const filesOf = (path: string) => skillFiles({ path, realPath: path }, createFileCache()).files;

describe("the files a served skill offers", () => {
  it("follows links that stay inside the skill, never one that leaves it, and skips what loaders skip", () => {
    const outside = testdir({ "secret.txt": "not for the model\n" });
    const dir = testdir({
      "SKILL.md": skillFile("alpha", "A skill."),
      "references/guide.md": "# Guide\n",
      "guide-again.md": link("references/guide.md"),
      docs: link("references"),
      "leak.txt": link(join(outside, "secret.txt")),
      "leak-dir": link(outside),
      "climb.md": link("../../etc/passwd"),
      ".env": "TOKEN=1\n",
      "node_modules/x/index.js": "x\n",
    });
    expect(filesOf(join(dir, "SKILL.md")).map((file) => file.relative)).toEqual([
      "SKILL.md",
      "docs/guide.md",
      "guide-again.md",
    ]);
  });

  it("offers a loose skill file alone, and nothing that is not a regular file", () => {
    const dir = testdir({ "notes.md": skillFile("notes", "Loose."), "other.md": "x\n" });
    expect(filesOf(join(dir, "notes.md"))).toEqual([
      { relative: "SKILL.md", real: join(dir, "notes.md") },
    ]);
    const folder = testdir({ "SKILL.md": skillFile("fifo", "Has a pipe.") });
    execFileSync("mkfifo", [join(folder, "pipe")]);
    expect(filesOf(join(folder, "SKILL.md")).map((file) => file.relative)).toEqual(["SKILL.md"]);
  });
});

describe("skill:// URIs", () => {
  it("round-trip names and paths, encoding what a URI cannot hold", () => {
    const uri = skillUri("alpha", "docs/a file #1.md");
    expect(uri).toBe("skill://alpha/docs/a%20file%20%231.md");
    expect(parseSkillUri(uri)).toEqual({ name: "alpha", relative: "docs/a file #1.md" });
    expect(parseSkillUri("skill://alpha")).toEqual({ name: "alpha", relative: "" });
  });

  it("refuse every way out of a skill", () => {
    for (const uri of [
      "skill://x/../../etc/passwd",
      "skill://alpha/./SKILL.md",
      "skill://alpha//SKILL.md",
      "skill://alpha/%2e%2e/x",
      "skill://alpha/a%2fb",
      "skill://alpha/a%5cb",
      "skill://alpha/a%00b",
      "skill://alpha/%E0%A4%A",
      "skill://alpha/SKILL.md?x=1",
      "file:///etc/passwd",
      "skill://",
    ])
      expect(parseSkillUri(uri), uri).toBeUndefined();
  });
});
