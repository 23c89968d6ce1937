import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CodeParsers } from "@skillshelf/audit";
import { type Environment, type PackageScope, SkillshelfError } from "@skillshelf/core";
import { mirrorRules, readPolicy } from "@skillshelf/policy";
import {
  parseSourceUrl,
  type StageOptions,
  scopeSourceSettings,
  sourceAccess,
  sourceCommand,
} from "@skillshelf/sources";
import { readLockFile, readScopeState, type ScopeCache } from "@skillshelf/store";
import type { SourceFetches } from "./_staging.js";
import { orgRefusal } from "./org.js";
import { planLifecycle } from "./plan.js";
import { restoreFromLock } from "./restore.js";
import type { ChangeRequest } from "./session.js";
import type { LifecyclePlan } from "./types.js";

/** What a person chose that a plan is made again for: skills from a collection, audit rules approved. */
export interface PlanChoices {
  readonly skills: readonly string[];
  readonly approve: readonly string[];
}

/** The plan a session's request asks for, with the choices made so far; staged sources are the plan's to release. */
export async function sessionPlan(
  request: ChangeRequest,
  choices: PlanChoices,
  shared: {
    /** The scope asked or decided; `undefined` for copies named wherever they are. */
    readonly scope: PackageScope | undefined;
    /** The scope a restore, an update of everything and staging's settings read when none is. */
    readonly orDefault: PackageScope;
    readonly cache: ScopeCache;
    readonly fetches: SourceFetches;
    readonly codeParsers: CodeParsers;
    readonly stage: StageOptions;
  },
): Promise<LifecyclePlan> {
  const { environment, command, targets, progress } = request;
  const { scope, cache, codeParsers, stage } = shared;
  const audit = { approve: choices.approve };
  if (command === "install" && targets.length === 0) {
    // a scope installed under an org restores under the same org, pinned the same
    const refused = orgRefusal(environment, shared.orDefault);
    if (refused !== undefined)
      throw new SkillshelfError(refused.code, refused.message, {
        path: refused.path,
        hint: refused.hint,
        details: refused.details,
      });
    return restoreFromLock({
      environment,
      scope: shared.orDefault,
      frozen: request.frozen,
      progress,
      cache,
      audit,
      stage,
      codeParsers,
      bundle: request.fromBundle,
    });
  }
  const common = {
    environment,
    scope,
    progress,
    cache,
    fetches: shared.fetches,
    audit,
    force: request.force,
    stage,
    codeParsers,
  };
  if (command === "install" || command === "import") {
    if (command === "import") assertClaudePlugin(environment, targets[0] ?? "");
    return planLifecycle({
      ...common,
      operation: "install",
      targets,
      withRequirements: request.withRequirements,
      frozen: request.frozen,
      allOrNothing: request.allOrNothing,
      plugins: request.plugins?.filter((name) => name !== ""),
      skills: choices.skills.filter((name) => name !== ""),
      fullDepth: request.fullDepth,
      links: request.links,
    });
  }
  return planLifecycle({
    ...common,
    operation: command,
    targets:
      command === "update" && targets.length === 0
        ? installedIds(environment, shared.orDefault, cache)
        : targets,
    ref: request.ref,
  });
}

/**
 * How a change in `scope` stages its sources: the user's credentials and proxies, the scopes'
 * limits, and which `mcp+stdio:` command lines may start — the ones typed (`texts`: a change's
 * targets), the ones the user's own lock records, or any with `allowMcpCommand`. A command in a
 * project's lock or an index came with a clone, and is not run on its say alone.
 */
export function changeStageOptions(
  environment: Environment,
  scope: PackageScope,
  options: {
    readonly texts: readonly string[];
    readonly allowMcpCommand: boolean;
    readonly signal?: AbortSignal | undefined;
  },
): StageOptions {
  return {
    signal: options.signal,
    env: environment.env,
    ...sourceAccess(environment),
    mirrors: mirrorRules(readPolicy(environment)),
    ...scopeSourceSettings(environment, scope),
    runsCommand: mcpCommandsAllowed(environment, options.texts, options.allowMcpCommand),
  };
}

// --- internal ---

function mcpCommandsAllowed(
  environment: Environment,
  texts: readonly string[],
  allowAny: boolean,
): (command: string) => boolean {
  if (allowAny) return () => true;
  const typed = new Set(texts.flatMap((text) => commandOf(text, environment.cwd) ?? []));
  let own: ReadonlySet<string> | undefined;
  return (command) => {
    if (typed.has(command)) return true;
    own ??= userLockCommands(environment);
    return own.has(command);
  };
}

/** The command line an `mcp+stdio:` source text names, read as the source is, else `undefined`. */
function commandOf(text: string, baseDir: string): string | undefined {
  const parsed = parseSourceUrl(text, baseDir);
  return parsed.ok ? sourceCommand(parsed.source) : undefined;
}

function userLockCommands(environment: Environment): ReadonlySet<string> {
  const read = readLockFile(environment, "user");
  const commands = new Set<string>();
  if (!read.ok) return commands;
  for (const { source } of Object.values(read.value.value.packages)) {
    const command = sourceCommand(source);
    if (command !== undefined) commands.add(command);
  }
  return commands;
}

/** The ids recorded in a scope's state (its copies are read by the plan, not here). */
function installedIds(environment: Environment, scope: PackageScope, cache: ScopeCache): string[] {
  const state = readScopeState(environment, scope, cache);
  return state.ok ? Object.keys(state.value.state.installed) : [];
}

function assertClaudePlugin(environment: Environment, path: string): void {
  const dir = resolve(environment.cwd, path);
  if (!existsSync(join(dir, ".claude-plugin", "plugin.json")))
    throw new SkillshelfError(
      "import_not_claude_plugin",
      `${path} is not a Claude Code plugin: it has no .claude-plugin/plugin.json`,
      { path: dir },
    );
}
