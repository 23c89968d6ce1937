import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ResourceRoot } from "@skillshelf/skills-loader";
import type { CorpusSkills } from "./corpus-tree.js";

/** A generated tree: its roots, lowest precedence first, and how many skill files it holds. */
export interface GeneratedTree {
  readonly roots: ResourceRoot[];
  readonly files: number;
}

/**
 * Write `count` skills over three roots, deterministically from `seed`: a flat user library, an
 * agent folder with category folders, and a project library two levels deep whose names partly
 * repeat the user library's (so precedence decides). Frontmatter follows the shapes real files use
 * (see the corpus statistics): mostly plain keys, some quoted, folded or literal descriptions,
 * metadata maps, tool lists, and a few files only the full YAML parser reads. With `skills`, each
 * folder is one of those real skills instead, in turn, under the generated name.
 */
export function generateSkillTree(
  dir: string,
  count: number,
  seed = 1,
  layout: SkillLayout = "mixed",
  skills?: CorpusSkills,
): GeneratedTree {
  rmSync(dir, { recursive: true, force: true });
  const random = seededRandom(seed);
  const [agent, user, project] = treeRoots(dir).map((root) => root.path) as [
    string,
    string,
    string,
  ];
  const perRoot = Math.ceil(count / 3);
  let written = 0;
  for (let index = 0; index < count; index++) {
    const rootIndex = Math.min(2, Math.floor(index / perRoot));
    const local = index - rootIndex * perRoot;
    // every tenth project skill reuses a user-library name
    const name =
      rootIndex === 2 && local % 10 === 0
        ? `user-skill-${local}`
        : `${["user", "agent", "project"][rootIndex]}-skill-${local}`;
    const category = `category-${local % 40}`;
    const root = [user, agent, project][rootIndex] as string;
    const depth = layout === "flat" ? 0 : layout === "nested" ? 2 : rootIndex;
    const folder = join(root, ...[category, `group-${local % 7}`].slice(0, depth), name);
    if (skills === undefined) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "SKILL.md"), skillText(name, random));
    } else skills.write(folder, name, index);
    written += 1;
  }
  return { roots: treeRoots(dir), files: written };
}

/**
 * Where a tree's skills sit: `mixed` puts the user library's at its top, the agent folder's in
 * category folders and the project's two levels deep; `flat` and `nested` put every root's at its
 * top, or two levels deep.
 */
export type SkillLayout = "mixed" | "flat" | "nested";

/** The three roots of a generated tree, lowest precedence first. */
export function treeRoots(dir: string): ResourceRoot[] {
  const home = join(dir, "home");
  const project = join(dir, "project");
  return [
    {
      path: join(home, ".claude", "skills"),
      scope: "user",
      source: "claude-code",
      origin: "claude-code-user",
      precedence: 20,
      trust: "untrusted",
      containment: home,
    },
    {
      path: join(home, ".config", "skillshelf", "skills"),
      scope: "user",
      source: "skillshelf",
      origin: "user",
      precedence: 30,
      trust: "trusted",
      containment: home,
    },
    {
      path: join(project, ".skillshelf", "skills"),
      scope: "project",
      source: "skillshelf",
      origin: "project",
      precedence: 50,
      trust: "trusted",
      containment: project,
    },
  ];
}

// --- internal ---

const WORDS =
  "review deploy migrate test lint format document release triage profile cache index query schema render bundle package audit secure observe trace retry stream parse validate compose refactor".split(
    " ",
  );

/** A deterministic random number generator (a linear congruential one), from a seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function skillText(name: string, random: () => number): string {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)] as string;
  const sentence = (words: number) => `${Array.from({ length: words }, pick).join(" ")}.`;
  const description = `Use when you need to ${sentence(8 + Math.floor(random() * 20))} Covers ${sentence(6)}`;
  const shape = random();
  let frontmatter: string;
  if (shape < 0.55) frontmatter = `name: ${name}\ndescription: ${description}\n`;
  else if (shape < 0.65)
    frontmatter = `name: ${name}\ndescription: "${description}"\nlicense: MIT\n`;
  else if (shape < 0.72)
    frontmatter = `name: ${name}\ndescription: >-\n  ${sentence(10)}\n  ${sentence(12)}\n`;
  else if (shape < 0.76)
    frontmatter = `name: ${name}\ndescription: |\n  ${sentence(10)}\n  ${sentence(8)}\n`;
  else if (shape < 0.86) {
    frontmatter = `name: ${name}\ndescription: ${description}\nlicense: Apache-2.0\nmetadata:\n  author: bench\n  version: "1.${Math.floor(random() * 9)}"\n`;
  } else if (shape < 0.92)
    frontmatter = `name: ${name}\ndescription: ${description}\nallowed-tools:\n  - Read\n  - Grep\n  - Bash(git:*)\n`;
  // about 8% use YAML the fast path leaves to the full parser, as in the corpus
  else if (shape < 0.95) frontmatter = `name: ${name}\ndescription: ${description} # reviewed\n`;
  else if (shape < 0.98)
    frontmatter = `name: ${name}\ndescription: ${description}\nmetadata: {author: bench, version: "2.0"}\n`;
  else frontmatter = `name: ${name}\ndescription: &d ${description}\nsummary: *d\n`;
  const paragraphs = 4 + Math.floor(random() * 24);
  const body = Array.from(
    { length: paragraphs },
    (_, index) => `## Step ${index + 1}\n\n${sentence(20)} ${sentence(18)} ${sentence(14)}\n`,
  ).join("\n");
  return `---\n${frontmatter}---\n\n# ${name}\n\n${body}`;
}
