import { basename, join, relative } from "node:path";
import {
  type Diagnostic,
  type Environment,
  isSkillshelfError,
  type PackageScope,
} from "@skillshelf/core";
import { beginPass } from "@skillshelf/resources";
import type { Skill } from "@skillshelf/skills-loader";
import {
  type PackageManifest,
  packageCopyRoots,
  packagesDir,
  reviewLink,
  type ScopeCache,
} from "@skillshelf/store";
import { alsoForField, existingAgentFolders, linkForms } from "./_link-agents.js";
import { refusalOf } from "./_refusal.js";
import type { LifecycleRequest, Refusal, StepLink } from "./types.js";

/**
 * The skills a package folder offers (staged or installed), each a folder with its `SKILL.md`:
 * what `--agent` links and what `--skill` would have to pick from.
 */
export function packageSkills(
  environment: Environment,
  folder: { readonly id: string; readonly dir: string; readonly manifest: PackageManifest },
): Skill[] {
  const roots = packageCopyRoots({ ...folder, record: undefined }, "skill");
  if (roots.length === 0) return [];
  return beginPass(environment, { roots: { skill: roots }, trustImports: true })
    .load("skill")
    .items.filter((skill) => basename(skill.path).toLowerCase() === "skill.md");
}

/**
 * The links an install step makes (`LifecycleRequest.links`): each skill the staged package
 * offers, into each agent's folder of the scope, reviewed against what is there now. The first
 * link the writer would refuse (`link_conflict`, `link_unsafe`, …) refuses the step.
 */
export function stepLinks(
  request: {
    readonly environment: Environment;
    readonly links: NonNullable<LifecycleRequest["links"]>;
    readonly cache?: ScopeCache | undefined;
  },
  step: {
    readonly scope: PackageScope;
    readonly id: string;
    readonly dir: string;
    readonly manifest: PackageManifest;
  },
  diagnostics: Diagnostic[],
): { readonly links: StepLink[] } | { readonly refusal: Refusal } {
  const { environment, links, cache } = request;
  const { scope, id, dir, manifest } = step;
  const agents =
    links.agents === "all"
      ? existingAgentFolders(environment, scope, "skill", diagnostics)
      : links.agents;
  const forms = linkForms(scope, "skill", agents, links.copy === true);
  const installed = join(packagesDir(environment, scope), id);
  const planned: StepLink[] = [];
  for (const skill of packageSkills(environment, { id, dir, manifest })) {
    const staged = skill.baseDir;
    const target = join(installed, relative(dir, staged));
    for (const { agent, alsoFor, copy } of forms) {
      const linkRequest = {
        agent,
        kind: "skill" as const,
        target,
        name: basename(target),
        package: id,
        copy,
        bare: links.bare,
      };
      try {
        const reviewed = reviewLink(environment, scope, linkRequest, { cache, staged });
        planned.push({
          agent,
          ...alsoForField(alsoFor),
          key: reviewed.key,
          target,
          copy,
          ...(links.bare === true && copy ? { bare: true as const } : {}),
          inPlace: reviewed.inPlace,
        });
      } catch (error) {
        if (!isSkillshelfError(error)) throw error;
        return { refusal: refusalOf(error) };
      }
    }
  }
  return { links: planned };
}
