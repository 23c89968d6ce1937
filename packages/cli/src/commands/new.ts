import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  isPackageId,
  projectLibraryDir,
  type ResourceKind,
  SkillshelfError,
} from "@skillshelf/core";
import { type CommandInput, flag, stringValue } from "../command.js";
import { displayPath } from "../format.js";
import { defaultScope } from "./change.js";

/** What `new` scaffolds, as kind → where in a library and what it holds. */
const SCAFFOLDS: Readonly<
  Record<ResourceKind, (name: string) => { readonly path: string; readonly text: string }>
> = {
  skill: (name: string) => ({
    path: join("skills", name, "SKILL.md"),
    text: `---\nname: ${name}\ndescription: What ${name} does, and when to use it. Say both, in one or two sentences.\n---\n# ${name}\n\n## When to use\n\nDescribe the situations this skill is for.\n\n## Steps\n\n1. The first thing to do.\n2. The next.\n`,
  }),
  prompt: (name: string) => ({
    path: join("prompts", `${name}.md`),
    text: `---\ndescription: What /${name} asks for\nargument-hint: <what>\n---\nDo this for $1, and say what you changed.\n`,
  }),
  agent: (name: string) => ({
    path: join("agents", `${name}.md`),
    text: `---\nname: ${name}\ndescription: What the ${name} agent is for.\ntools: Read, Grep\n---\nYou are the ${name} agent. Describe how it works and what it returns.\n`,
  }),
  fleet: (name: string) => ({
    path: join("fleets", `${name}.md`),
    text: `---\nversion: 1\nname: ${name}\ndescription: What the ${name} fleet does.\nsteps:\n  - id: plan\n    agent: planner\n---\nDescribe the work for the fleet.\n`,
  }),
};

/**
 * Scaffold a resource in the scope's library that passes `validate --strict`: a skill folder, a
 * prompt template, an agent recipe or a fleet contract. Never overwrites (`resource_exists`).
 */
export function runNew(input: CommandInput): number {
  const { io } = input;
  const context = input.context();
  const { environment, style } = context;
  const [name = ""] = input.positionals;
  const kind = (stringValue(input, "kind") ?? "skill") as ResourceKind;
  if (!isPackageId(name) || name.includes("."))
    throw new SkillshelfError("name_invalid", `${JSON.stringify(name)} cannot name a ${kind}`);
  const scope = flag(input, "user")
    ? "user"
    : flag(input, "project")
      ? "project"
      : defaultScope(environment);
  const library = scope === "user" ? environment.configDir : projectLibraryDir(environment);
  const scaffold = SCAFFOLDS[kind](name);
  const path = join(library, scaffold.path);
  if (existsSync(kind === "skill" ? dirname(path) : path))
    throw new SkillshelfError("resource_exists", `${path} already exists; nothing was written`, {
      path,
    });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, scaffold.text, { flag: "wx" });
  io.stdout(
    `created ${displayPath(path, style)} (${kind}, ${scope} scope); check it with skillshelf validate --strict ${displayPath(path, style)}\n`,
  );
  return 0;
}
