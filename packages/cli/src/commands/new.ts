import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  isPackageId,
  projectLibraryDir,
  type ResourceKind,
  SkillshelfError,
} from "@skillshelf/core";
import { KINDS } from "@skillshelf/resources";
import { defaultScope } from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { displayPath } from "../format.js";

/**
 * Scaffold a resource in the scope's library that passes `validate --strict`: a skill folder, a
 * prompt template, an agent recipe or a fleet contract. Never overwrites (`resource_exists`).
 */
export function runNew(
  input: CommandInput<{
    readonly kind: ResourceKind | undefined;
    readonly user: boolean;
    readonly project: boolean;
  }>,
): number {
  const { io } = input;
  const context = input.context();
  const { environment, style } = context;
  const [name = ""] = input.positionals;
  const kind = input.values.kind ?? "skill";
  if (!isPackageId(name) || name.includes("."))
    throw new SkillshelfError("name_invalid", `${JSON.stringify(name)} cannot name a ${kind}`);
  const scope = input.values.user
    ? "user"
    : input.values.project
      ? "project"
      : defaultScope(environment);
  const library = scope === "user" ? environment.configDir : projectLibraryDir(environment);
  const scaffold = KINDS[kind].scaffold(name);
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
