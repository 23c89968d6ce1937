import {
  canonicalJson,
  createDiagnostic,
  type Diagnostic,
  type Environment,
} from "@skillshelf/core";
import {
  inspectLinks,
  type LinkFault,
  type LockedLink,
  lockEntryOf,
  lockLinkOf,
  lockRoot,
  PACKAGE_SCOPES,
  type PackageScope,
  readLockFile,
  readScopeState,
  recheckCopies,
  type ScopeState,
  scopeFolderProblem,
} from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter } from "../format.js";

/** What `verify` checked in one scope. */
interface VerifiedScope {
  readonly scope: PackageScope;
  readonly copies: number;
  readonly locked: number;
  readonly links: number;
  readonly problems: readonly Diagnostic[];
}

/**
 * Re-digest every installed copy of both scopes against its record, and check each scope's state
 * against its lock: content drift, a missing copy, a lock entry the state lacks or the other way
 * round, an entry that disagrees. Each finding names the command that fixes it. Exit 1 on any.
 */
export function runVerify(input: CommandInput<{ readonly json: boolean }>): number {
  const { io } = input;
  const context = input.context();
  const { environment } = context;
  const scopes = PACKAGE_SCOPES.map((scope): VerifiedScope => {
    const flagName = `--${scope}`;
    // a library folder that leads out of the scope is a problem in itself, and is not read through
    const unsafe = scopeFolderProblem(environment, scope, "write");
    if (unsafe !== undefined) return { scope, copies: 0, locked: 0, links: 0, problems: [unsafe] };
    const state = readScopeState(environment, scope);
    const lock = readLockFile(environment, scope);
    if (!state.ok || !lock.ok)
      return {
        scope,
        copies: 0,
        locked: 0,
        links: 0,
        problems: [...(state.ok ? [] : state.diagnostics), ...(lock.ok ? [] : lock.diagnostics)],
      };
    const problems: Diagnostic[] = recheckCopies(environment, scope, state.value.state).map(
      (problem) => ({
        ...problem,
        hint: fixFor(problem.code, String(problem.details?.id), flagName),
      }),
    );
    const installed = state.value.state.installed;
    const locked = lock.value.value.packages;
    const root = lockRoot(environment, scope);
    const path = lock.value.path;
    const ids = [...new Set([...Object.keys(installed), ...Object.keys(locked)])].sort();
    for (const id of ids) {
      const entry = locked[id];
      const expected = lockEntryOf(state.value.state, id, root);
      if (entry === undefined)
        problems.push(
          problem(
            "lock_entry_missing",
            `${id} is installed in the ${scope} scope but its lock does not list it`,
            path,
            `skillshelf remove ${id} ${flagName}, or install it again so the lock records it`,
          ),
        );
      else if (expected === null)
        problems.push(
          problem(
            "lock_ahead",
            `the ${scope} lock lists ${id}, which is not installed`,
            path,
            `skillshelf install ${flagName}`,
          ),
        );
      else if (canonicalJson(entry) !== canonicalJson(expected))
        problems.push(
          problem(
            "lock_disagrees",
            `the ${scope} lock pins ${id} otherwise than it is installed`,
            path,
            `skillshelf install ${flagName} (to what the lock pins)`,
          ),
        );
    }
    const links = state.value.state.links ?? {};
    problems.push(
      ...linkProblems(environment, scope, state.value.state, lock.value.value.links ?? {}, path),
    );
    return {
      scope,
      copies: Object.keys(installed).length,
      locked: Object.keys(locked).length,
      links: Object.keys(links).length,
      problems,
    };
  });
  const problems = scopes.flatMap((scope) => scope.problems);
  if (input.values.json) {
    printJson(io, context, {
      ok: problems.length === 0,
      scopes: scopes.map((scope) => ({ ...scope, problems: scope.problems.map(publicDiagnostic) })),
    });
    return problems.length === 0 ? 0 : 1;
  }
  const paint = painter(io.color);
  for (const diagnostic of problems) io.stderr(formatDiagnostic(diagnostic, context.style, paint));
  const counts = scopes
    .map(
      (scope) =>
        `${scope.scope}: ${scope.copies} installed, ${scope.locked} locked${scope.links === 0 ? "" : `, ${scope.links} linked`}`,
    )
    .join("; ");
  io.stdout(
    problems.length === 0
      ? `verified: every copy matches its record and its lock (${counts})\n`
      : `${problems.length} problem(s) (${counts})\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

// --- internal ---

/**
 * Each recorded link checked on disk (`link_missing`, `link_changed`, `link_repointed`) and
 * against the lock's links, with the command that fixes it.
 */
/** What fixes each kind of link fault, given its path and the scope's flag. */
const LINK_FIX: Record<LinkFault["code"], (path: string, flag: string) => string> = {
  link_missing: (_, flag) => `skillshelf install ${flag} makes it again`,
  link_changed: (path, flag) => `move what is at ${path} away, then skillshelf install ${flag}`,
  link_repointed: (path, flag) => `move what is at ${path} away, then skillshelf install ${flag}`,
  link_unrecorded: (path, flag) => `skillshelf link it ${flag} to keep it, or remove ${path}`,
  link_to_disabled: (path, flag) =>
    `skillshelf disable its package ${flag} again to take it away, or remove ${path}`,
};

function linkProblems(
  environment: Environment,
  scope: PackageScope,
  state: ScopeState,
  locked: Readonly<Record<string, LockedLink>>,
  lockPath: string,
): Diagnostic[] {
  const flagName = `--${scope}`;
  const problems = inspectLinks(environment, scope).faults.map((fault) =>
    problem(fault.code, fault.message, fault.path, LINK_FIX[fault.code](fault.path, flagName)),
  );
  const links = state.links ?? {};
  for (const key of [...new Set([...Object.keys(links), ...Object.keys(locked)])].sort()) {
    const entry = locked[key];
    if (entry === undefined)
      problems.push(
        problem(
          "lock_entry_missing",
          `the link ${key} is made in the ${scope} scope but its lock does not list it`,
          lockPath,
          `skillshelf unlink it ${flagName}, or link it again so the lock records it`,
        ),
      );
    else if (links[key] === undefined)
      problems.push(
        problem(
          "lock_ahead",
          `the ${scope} lock lists the link ${key}, which is not made`,
          lockPath,
          `skillshelf install ${flagName}`,
        ),
      );
    else if (canonicalJson(entry) !== canonicalJson(lockLinkOf(state, key)))
      problems.push(
        problem(
          "lock_disagrees",
          `the ${scope} lock pins the link ${key} otherwise than it is made`,
          lockPath,
          `skillshelf install ${flagName} (to what the lock pins)`,
        ),
      );
  }
  return problems;
}

function problem(code: Diagnostic["code"], message: string, path: string, fix: string): Diagnostic {
  return createDiagnostic("error", code, message, { path, hint: fix });
}

/** The command that repairs a copy's finding. */
function fixFor(code: string, id: string, flagName: string): string {
  switch (code) {
    case "content_drift":
      return `skillshelf install ${flagName} puts back the pinned files (your edits are kept in a backup); skillshelf update ${id} --force takes the source's`;
    case "copy_missing":
      return `skillshelf install ${flagName} fetches it again from its locked source`;
    case "operation_pending":
      return "any change in this scope settles it first (skillshelf doctor shows what is left)";
    default:
      return `skillshelf remove ${id} ${flagName}, then install it again`;
  }
}
