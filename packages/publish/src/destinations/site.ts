import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { removeTree, SkillshelfError, sha256, writeFileAtomic } from "@skillshelf/core";
import { sshSign } from "@skillshelf/sources";
import { realFolder } from "../_folders.js";
import { packTree } from "../_pack.js";
import type { Destination, PublishedArtifact } from "./_destination.js";

const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const WELL_KNOWN = [".well-known", "agent-skills"];

/**
 * A folder made into a static site: `.well-known/agent-skills/index.json` (discovery RFC 0.2.0)
 * listing each skill with its `sha256:` digest, a skill that is one `SKILL.md` served as it is
 * and any other as a `.tar.gz` beside it. Skills already listed under other names stay; a skill
 * published again replaces its entry and its files. Copy the folder to any web server or bucket
 * and `install https://<host>` reads it.
 */
export const SITE_DESTINATION: Destination<"site"> = {
  syntax: "a folder for a static site (site:<dir>)",
  parse: (text, baseDir) =>
    text.startsWith("site:") ? { kind: "site", dir: resolve(baseDir, text.slice(5)) } : undefined,
  describe: (destination) => `site:${destination.dir}`,
  write: async (skills, destination, { dryRun, environment, signingKey }) => {
    const folder = join(destination.dir, ...WELL_KNOWN);
    const indexPath = join(folder, "index.json");
    const previous = readPrevious(indexPath);
    const published = new Set(skills.map((skill) => skill.name));
    const artifacts: PublishedArtifact[] = [];
    const files: { readonly path: string; readonly bytes: Buffer }[] = [];
    const entries = previous.entries.filter(
      (entry) => !published.has((entry as { name?: unknown }).name as string),
    );
    for (const skill of skills) {
      const single = isSingleSkillFile(skill.staged.dir);
      const file = single ? "SKILL.md" : `${skill.name}.tar.gz`;
      const bytes = single
        ? readFileSync(join(skill.staged.dir, "SKILL.md"))
        : await packTree(skill.staged.dir);
      const digest = `sha256:${sha256(bytes)}`;
      files.push({ path: join(folder, skill.name, file), bytes });
      artifacts.push({
        skill: skill.name,
        location: join(folder, skill.name, file),
        digest,
        bytes: bytes.length,
      });
      // a detached SSH signature of the bytes served, beside them
      const signature =
        signingKey === undefined
          ? undefined
          : Buffer.from(await sshSign(bytes, signingKey, environment.env));
      if (signature !== undefined) {
        files.push({ path: join(folder, skill.name, `${file}.sig`), bytes: signature });
        artifacts.push({
          skill: skill.name,
          location: join(folder, skill.name, `${file}.sig`),
          digest: `sha256:${sha256(signature)}`,
          bytes: signature.length,
        });
      }
      entries.push({
        name: skill.name,
        type: single ? "skill-md" : "archive",
        description: skill.description,
        url: `${skill.name}/${file}`,
        digest,
        ...(signature === undefined ? {} : { signature: `${skill.name}/${file}.sig` }),
      });
    }
    entries.sort((a, b) => compare(String(a.name), String(b.name)));
    const index = `${JSON.stringify({ $schema: SCHEMA, skills: entries }, null, 2)}\n`;
    artifacts.push({
      location: indexPath,
      digest: `sha256:${sha256(index)}`,
      bytes: Buffer.byteLength(index),
    });
    if (dryRun) return artifacts;
    realFolder(destination.dir, WELL_KNOWN);
    for (const skill of skills) removeTree(join(folder, skill.name));
    for (const { path, bytes } of files) {
      mkdirSync(join(path, ".."), { recursive: true });
      // each file whole or not at all; the index, written last, names only files already there
      const temporary = `${path}.tmp-${process.pid}`;
      writeFileSync(temporary, bytes, { mode: 0o644 });
      renameSync(temporary, path);
    }
    writeFileAtomic({ path: indexPath, text: index, expected: previous.text });
    return artifacts;
  },
};

// --- internal ---

/** The index already there (its text, to replace only what was read) and its entries. */
function readPrevious(indexPath: string): {
  readonly text: string | undefined;
  readonly entries: Record<string, unknown>[];
} {
  let text: string;
  try {
    text = readFileSync(indexPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { text: undefined, entries: [] };
    throw unreadable(indexPath, String(error));
  }
  let skills: unknown;
  try {
    skills = (JSON.parse(text) as { skills?: unknown }).skills;
  } catch {
    throw unreadable(indexPath, "it is not JSON");
  }
  if (!Array.isArray(skills)) throw unreadable(indexPath, "it has no skills list");
  return { text, entries: skills.filter((entry) => typeof entry === "object" && entry !== null) };
}

function unreadable(path: string, problem: string): SkillshelfError {
  return new SkillshelfError(
    "publish_destination_unreadable",
    `${path} is not a skills index (${problem})`,
    { path },
  );
}

/** True when the staged skill is its `SKILL.md` alone: served as it is, no archive needed. */
function isSingleSkillFile(dir: string): boolean {
  const names = readdirSync(dir);
  return names.length === 1 && names[0] === "SKILL.md";
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
