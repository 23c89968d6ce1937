import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AGENTS, createDiagnostic, type Diagnostic, projectLibraryDir } from "@skillshelf/core";
import {
  orphanedStaging,
  type ProxyRoute,
  proxyRoutes,
  scopeSettingsPath,
} from "@skillshelf/sources";
import {
  inspectLinks,
  PACKAGE_SCOPES,
  readLockFile,
  readScopeState,
  scopeFolderProblem,
} from "@skillshelf/store";
import { inspectScopeLock, pendingChange, scopeLeftovers } from "@skillshelf/store/writers";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter } from "../format.js";

/**
 * The environment and what could be wrong with it: the folders in use and the project found, the
 * agents' folders present, git; then per scope a lock left by a dead process, leftovers and kept
 * backups, and a state or lock file that cannot be read, each with its fix. Exit 1 on an error.
 */
export function runDoctor(input: CommandInput<{ readonly json: boolean }>): number {
  const { io } = input;
  const context = input.context();
  const { environment, style } = context;
  const git = spawnSync("git", ["--version"], {
    encoding: "utf8",
    env: { PATH: io.env.PATH ?? "" },
  });
  const folders = {
    cwd: environment.cwd,
    project: environment.project,
    projectLibrary: projectLibraryDir(environment),
    userLibrary: environment.configDir,
    home: environment.home,
  };
  const agents = AGENTS.flatMap((agent) =>
    [
      agent.userSkillRoot === undefined ? undefined : join(environment.home, agent.userSkillRoot),
      agent.projectSkillRoot === undefined
        ? undefined
        : join(environment.project, agent.projectSkillRoot),
    ]
      .filter((path): path is string => path !== undefined && existsSync(path))
      .map((path) => ({ agent: agent.id, path })),
  );
  const network = proxyRoutes(environment);
  const settings = {
    user: scopeSettingsPath(environment, "user"),
    project: scopeSettingsPath(environment, "project"),
  };
  const findings: Diagnostic[] = [...network.diagnostics];
  if (git.status !== 0)
    findings.push(
      createDiagnostic(
        "warning",
        "git_missing",
        "git is not on PATH: git sources cannot be installed",
      ),
    );
  for (const path of orphanedStaging(environment.env.TMPDIR || undefined))
    findings.push(
      createDiagnostic("warning", "leftover_found", `a killed skillshelf left ${path}`, {
        path,
      }),
    );
  for (const scope of PACKAGE_SCOPES) {
    const target = { environment, scope };
    // a library folder that leads out of the scope is reported, and not read through
    const unsafe = scopeFolderProblem(environment, scope, "write");
    if (unsafe !== undefined) {
      findings.push(unsafe);
      continue;
    }
    const lock = inspectScopeLock(target);
    if (lock.held && lock.stale !== undefined)
      findings.push(
        createDiagnostic(
          "warning",
          "lock_stale",
          `the ${scope} scope is locked by a ${lock.stale}`,
          {
            path: lock.path,
          },
        ),
      );
    const pending = pendingChange(target);
    if (pending !== undefined) findings.push(pending);
    for (const left of scopeLeftovers(target))
      findings.push(
        left.kind === "leftover"
          ? createDiagnostic(
              "warning",
              "leftover_found",
              `an interrupted write left ${left.path}`,
              {
                path: left.path,
              },
            )
          : createDiagnostic(
              "info",
              "backup_kept",
              `a copy's edited files were kept at ${left.path}`,
              { path: left.path },
            ),
      );
    for (const fault of inspectLinks(environment, scope).faults)
      if (fault.code === "link_unrecorded" || fault.code === "copy_stale")
        findings.push(
          createDiagnostic("warning", fault.code, fault.message, {
            path: fault.path,
            details: { scope },
          }),
        );
    const state = readScopeState(environment, scope);
    const lockFile = readLockFile(environment, scope);
    findings.push(
      ...(state.ok ? [] : state.diagnostics),
      ...(lockFile.ok ? [] : lockFile.diagnostics),
    );
  }
  const ok = !findings.some((finding) => finding.severity === "error");
  if (input.values.json) {
    printJson(io, context, {
      ok,
      folders,
      agents,
      git: git.status === 0 ? git.stdout.trim() : null,
      network: network.routes,
      settings,
      findings: findings.map(publicDiagnostic),
    });
    return ok ? 0 : 1;
  }
  const lines = [
    `project:         ${displayPath(folders.project, style)}`,
    `project library: ${displayPath(folders.projectLibrary, style)}${existsSync(folders.projectLibrary) ? "" : " (not created yet)"}`,
    `user library:    ${displayPath(folders.userLibrary, style)}${existsSync(folders.userLibrary) ? "" : " (not created yet)"}`,
    `git:             ${git.status === 0 ? git.stdout.trim() : "not found"}`,
    `agent folders:   ${agents.length === 0 ? "none here" : agents.map((found) => `${found.agent} ${displayPath(found.path, style)}`).join(", ")}`,
    ...network.routes.map(
      (route) => `${`${route.sources.join(", ")}:`.padEnd(16)} ${routeText(route)}`,
    ),
    ...Object.entries(settings).map(
      ([scope, path]) =>
        `${`${scope} settings:`.padEnd(16)} ${displayPath(path, style)}${existsSync(path) ? "" : " (none: the default limits)"}`,
    ),
  ];
  io.stdout(`${lines.join("\n")}\n`);
  const paint = painter(io.color);
  for (const finding of findings) io.stderr(formatDiagnostic(finding, style, paint));
  io.stdout(findings.length === 0 ? "no problems found\n" : `${findings.length} finding(s)\n`);
  return ok ? 0 : 1;
}

// --- internal ---

/** Which proxy a kind of source goes through, in words (this machine is always reached directly). */
function routeText(route: ProxyRoute): string {
  const via = [
    route.https === undefined ? "https directly" : `https via ${route.https}`,
    route.http === undefined ? "http directly" : `http via ${route.http}`,
  ].join(", ");
  const around = route.noProxy === undefined ? "" : `; not for ${route.noProxy}`;
  return `${via}${around} (${route.from})`;
}
