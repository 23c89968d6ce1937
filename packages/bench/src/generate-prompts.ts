import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ResourceRoot } from "@skillshelf/core";
import { corpusPromptFiles } from "./corpus-tree.js";

/** What a tree of real templates holds, for a report to state. */
export interface PromptTree {
  readonly roots: ResourceRoot[];
  readonly files: number;
  readonly bytes: number;
}

/**
 * Write `count` prompt templates over a user and a project prompt folder: the corpus's real
 * templates (`corpusPromptFiles`), taken in turn under new names, every fifth in a nested folder.
 */
export function writePromptTree(dir: string, count: number): PromptTree {
  rmSync(dir, { recursive: true, force: true });
  const sources = corpusPromptFiles();
  const roots = promptTreeRoots(dir);
  let bytes = 0;
  for (let index = 0; index < count; index++) {
    const root = roots[index % roots.length] as ResourceRoot;
    const folder = index % 5 === 0 ? `group-${index % 17}/` : "";
    const path = join(root.path, `${folder}prompt-${index}.md`);
    mkdirSync(dirname(path), { recursive: true });
    const source = sources[index % sources.length] as string;
    copyFileSync(source, path);
    bytes += statSync(path).size;
  }
  return { roots, files: count, bytes };
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
