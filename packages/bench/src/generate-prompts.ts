import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ResourceRoot } from "@skillshelf/core";
import { seededRandom } from "./generate.js";

/**
 * Write `count` prompt templates over a user and a project prompt folder, deterministically:
 * a third without frontmatter (as many real commands are), the rest with a description and
 * argument hint, some in nested folders; bodies use every placeholder form.
 */
export function generatePromptTree(dir: string, count: number, seed = 7): ResourceRoot[] {
  rmSync(dir, { recursive: true, force: true });
  const random = seededRandom(seed);
  const roots = promptTreeRoots(dir);
  for (let index = 0; index < count; index++) {
    const root = roots[index % roots.length] as ResourceRoot;
    const folder = index % 5 === 0 ? `group-${index % 17}/` : "";
    const path = join(root.path, `${folder}prompt-${index}.md`);
    mkdirSync(dirname(path), { recursive: true });
    const body = Array.from(
      { length: 3 + Math.floor(random() * 12) },
      (_, line) => `Step ${line + 1}: handle $1 with \${2:-care}, given $ARGUMENTS and \${@:2}.`,
    ).join("\n");
    const frontmatter =
      index % 3 === 0
        ? ""
        : `---\ndescription: Prompt ${index} does a useful thing\nargument-hint: <target> [mode]\n---\n`;
    writeFileSync(path, `${frontmatter}# Prompt ${index}\n\n${body}\n`);
  }
  return roots;
}

/** The two roots of a generated prompt tree. */
function promptTreeRoots(dir: string): ResourceRoot[] {
  return [
    {
      path: join(dir, "home", ".config", "skillshelf", "prompts"),
      scope: "user",
      source: "skillshelf",
      origin: "user",
      precedence: 30,
      trust: "trusted",
      containment: join(dir, "home"),
    },
    {
      path: join(dir, "project", ".skillshelf", "prompts"),
      scope: "project",
      source: "skillshelf",
      origin: "project",
      precedence: 50,
      trust: "trusted",
      containment: join(dir, "project"),
    },
  ];
}

/**
 * A template of about `bytes` bytes holding `placeholders` placeholders of every form, evenly
 * spread; or, `hostile`, the same size made of unclosed `${1:-` openers.
 */
export function largeTemplate(bytes: number, placeholders: number, hostile = false): string {
  if (hostile) return "${1:-".repeat(Math.ceil(bytes / 5));
  const forms = ["$1", "$@", "${2:-default}", "$ARGUMENTS", "${@:2:3}"];
  const filler = "x".repeat(Math.max(0, Math.floor(bytes / placeholders) - 8));
  return Array.from(
    { length: placeholders },
    (_, index) => `${filler} ${forms[index % forms.length]}`,
  ).join("\n");
}
