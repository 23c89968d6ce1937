import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  copyTree,
  type Diagnostic,
  type EnvironmentInput,
  isSemver,
  parseJsonDocument,
  readRegularFile,
} from "@skillshelf/core";
import { createStagingArea, readCollection } from "@skillshelf/sources";
import { validateCollection } from "@skillshelf/validation";

/** One skill to publish: its name and description, and a staged copy of its folder with its tree digest. */
export interface PublishedSkill {
  readonly name: string;
  readonly description: string;
  /** Its frontmatter's version, else its package's (`0.0.0` when neither gives one). */
  readonly version: string;
  /** Its copy (links kept inside, `.git` left out) and that copy's tree digest. */
  readonly staged: { readonly dir: string; readonly digest: string };
}

/** The skills to publish, copied into one staging area; `release()` removes them all. */
export interface PublishableSkills {
  readonly ok: true;
  readonly skills: readonly PublishedSkill[];
  readonly diagnostics: readonly Diagnostic[];
  release(): void;
}

/**
 * The skills of `folder` (one skill, a collection, or a package's skills, found as `install`
 * finds them), when strict validation finds no error, each copied as `install` copies a folder
 * (one staging area for all); else the findings, and nothing copied.
 */
export async function publishableSkills(
  folder: string,
  options: {
    readonly environment?: EnvironmentInput | undefined;
    readonly tempDir?: string | undefined;
  },
): Promise<
  PublishableSkills | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] }
> {
  const checked = validateCollection(folder, { mode: "strict", environment: options.environment });
  if (checked === undefined)
    return {
      ok: false,
      diagnostics: [
        // why a folder that looks like a skill was not one (collection_skill_invalid, …)
        ...readCollection(folder).diagnostics,
        {
          code: "publish_nothing",
          severity: "error",
          message: `${folder} holds no skill to publish`,
          path: folder,
        },
      ],
    };
  if (!checked.valid)
    return {
      ok: false,
      diagnostics: [
        ...checked.diagnostics,
        {
          code: "publish_invalid",
          severity: "error",
          message: `${folder} does not pass strict validation; nothing was published`,
          path: folder,
        },
      ],
    };
  const area = createStagingArea(options.tempDir);
  // a skill with no version of its own is published at its package's
  const packageVersion = manifestVersion(folder);
  try {
    const skills = readCollection(folder).skills.map((skill): PublishedSkill => {
      const dir = join(area.dir, skill.name);
      const { digest } = copyTree(join(folder, skill.path), dir, {
        skip: (name) => name === ".git",
      });
      return {
        name: skill.name,
        description: skill.description,
        version: skill.version === "0.0.0" ? (packageVersion ?? skill.version) : skill.version,
        staged: { dir, digest },
      };
    });
    return { ok: true, skills, diagnostics: checked.diagnostics, release: area.release };
  } catch (error) {
    area.release();
    throw error;
  }
}

// --- internal ---

/**
 * The SemVer `version` of the package `folder` belongs to, when its manifest gives one: the
 * manifest in `folder` (ours, else a Claude Code plugin's), or, for one skill's folder, that of
 * the package up to two folders above whose skills folder holds it (`pkg/skills/<name>`).
 */
function manifestVersion(folder: string): string | undefined {
  const own = manifestAt(folder);
  if (own !== undefined) return own.version;
  if (!existsSync(join(folder, "SKILL.md"))) return undefined;
  for (const above of [dirname(folder), dirname(dirname(folder))]) {
    const manifest = manifestAt(above);
    if (manifest === undefined) continue;
    return manifest.skills.some((skills) => resolve(above, skills) === dirname(folder))
      ? manifest.version
      : undefined;
  }
  return undefined;
}

/** The version and skills folders the manifest in `dir` declares, when it has one. */
function manifestAt(
  dir: string,
): { readonly version: string | undefined; readonly skills: readonly string[] } | undefined {
  for (const file of ["plugin.json", join(".claude-plugin", "plugin.json")]) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const parsed = parseJsonDocument(readRegularFile(path, MAX_MANIFEST_BYTES).toString("utf8"));
    const value = (parsed.ok ? parsed.value : {}) as {
      version?: unknown;
      extensions?: { skillshelf?: { resources?: { skills?: unknown } } };
    };
    const declared = value.extensions?.skillshelf?.resources?.skills;
    return {
      version:
        typeof value.version === "string" && isSemver(value.version) ? value.version : undefined,
      // a Claude Code plugin's skills are in skills/, as are ours unless the manifest says
      skills: typeof declared === "string" ? [declared] : ["skills"],
    };
  }
  return undefined;
}

/** A manifest is a few fields; anything past this is not one. */
const MAX_MANIFEST_BYTES = 1024 * 1024;
