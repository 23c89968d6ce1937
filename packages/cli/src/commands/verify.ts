import { createCodeParsers } from "@skillshelf/audit";
import {
  createDiagnostic,
  type Diagnostic,
  detailsOf,
  type Environment,
  type PackageScope,
  sameJson,
} from "@skillshelf/core";
import { advisoryRefusal, auditInstalled, checkAdvisories, teamDrift } from "@skillshelf/lifecycle";
import {
  createScopeCache,
  inspectLinks,
  type LockedLink,
  lockEntryOf,
  lockLinkOf,
  lockRoot,
  PACKAGE_SCOPES,
  readLockFile,
  readScopeState,
  recheckCopies,
  type ScopeCache,
  type ScopeState,
  scopeFolderProblem,
} from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostics, painter } from "../format.js";

/** What `verify` checked in one scope. */
interface VerifiedScope {
  readonly scope: PackageScope;
  readonly copies: number;
  readonly locked: number;
  readonly links: number;
  /** The copies whose files were audited again (no verdict recorded, or one from an older rule table). */
  readonly audited: readonly string[];
  readonly problems: readonly Diagnostic[];
}

/**
 * Re-digest every installed copy of both scopes against its record, and check each scope's state
 * against its lock: content drift, a missing copy, a lock entry the state lacks or the other way
 * round, an entry that disagrees. Each finding names the command that fixes it. Exit 1 on any.
 */
export async function runVerify(input: CommandInput<{ readonly json: boolean }>): Promise<number> {
  const { io } = input;
  const context = input.context();
  const { environment } = context;
  // each scope's state and lock parsed once, for the copies, the audit and the links
  const cache = createScopeCache();
  const codeParsers = createCodeParsers();
  const verifyScope = async (scope: PackageScope): Promise<VerifiedScope> => {
    // a library folder that leads out of the scope is a problem in itself, and is not read through
    const unsafe = scopeFolderProblem(environment, scope, "write");
    if (unsafe !== undefined)
      return { scope, copies: 0, locked: 0, links: 0, audited: [], problems: [unsafe] };
    const state = readScopeState(environment, scope, cache);
    const lock = readLockFile(environment, scope, cache);
    if (!state.ok || !lock.ok)
      return {
        scope,
        copies: 0,
        locked: 0,
        links: 0,
        audited: [],
        problems: [...(state.ok ? [] : state.diagnostics), ...(lock.ok ? [] : lock.diagnostics)],
      };
    const problems: Diagnostic[] = recheckCopies(environment, scope, state.value.state);
    // the audit verdicts: read again only where the rule table moved on or none was recorded
    const drifted = new Set(
      problems.flatMap((problem) => detailsOf(problem, "content_drift")?.id ?? []),
    );
    const audit = await auditInstalled(environment, scope, state.value.state, {
      drifted,
      codeParsers,
    });
    problems.push(...audit.problems);
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
            scope,
          ),
        );
      else if (expected === null)
        problems.push(
          problem(
            "lock_ahead",
            `the ${scope} lock lists ${id}, which is not installed`,
            path,
            scope,
          ),
        );
      else if (!sameJson(entry, expected))
        problems.push(
          problem(
            "lock_disagrees",
            `the ${scope} lock pins ${id} otherwise than it is installed`,
            path,
            scope,
          ),
        );
    }
    const links = state.value.state.links ?? {};
    problems.push(
      ...linkProblems(
        { environment, scope, cache },
        state.value.state,
        lock.value.value.links ?? {},
        path,
      ),
    );
    return {
      scope,
      copies: Object.keys(installed).length,
      locked: Object.keys(locked).length,
      links: Object.keys(links).length,
      audited: audit.audited,
      problems,
    };
  };
  // the copies an advisory followed here revokes: each a problem of its scope
  const advisories = checkAdvisories(environment);
  const scopes: VerifiedScope[] = [];
  for (const scope of PACKAGE_SCOPES) {
    const verified = await verifyScope(scope);
    const revoked = advisories.revoked
      .filter((copy) => copy.scope === scope)
      .map((copy) => ({ ...advisoryRefusal(copy, copy.id), path: copy.dir }));
    const drift = teamDrift(environment, scope, cache);
    scopes.push({ ...verified, problems: [...verified.problems, ...revoked, ...drift] });
  }
  const problems = scopes.flatMap((scope) => scope.problems);
  if (input.values.json) {
    printJson(io, context, {
      ok: problems.length === 0,
      scopes: scopes.map((scope) => ({ ...scope, problems: scope.problems.map(publicDiagnostic) })),
    });
    return problems.length === 0 ? 0 : 1;
  }
  const paint = painter(io.color);
  io.stderr(formatDiagnostics(problems, context.style, paint));
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

function linkProblems(
  target: {
    readonly environment: Environment;
    readonly scope: PackageScope;
    readonly cache: ScopeCache;
  },
  state: ScopeState,
  locked: Readonly<Record<string, LockedLink>>,
  lockPath: string,
): Diagnostic[] {
  const { environment, scope, cache } = target;
  const problems = inspectLinks(environment, scope, cache).faults.map((fault) =>
    problem(fault.code, fault.message, fault.path, scope),
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
          scope,
        ),
      );
    else if (links[key] === undefined)
      problems.push(
        problem(
          "lock_ahead",
          `the ${scope} lock lists the link ${key}, which is not made`,
          lockPath,
          scope,
        ),
      );
    else if (!sameJson(entry, lockLinkOf(state, key)))
      problems.push(
        problem(
          "lock_disagrees",
          `the ${scope} lock pins the link ${key} otherwise than it is made`,
          lockPath,
          scope,
        ),
      );
  }
  return problems;
}

/** A finding of `scope`: its hint, from the catalogue, names the scope's flag and the path. */
function problem(
  code: Diagnostic["code"],
  message: string,
  path: string,
  scope: PackageScope,
): Diagnostic {
  return createDiagnostic("error", code, message, { path, details: { scope, path } });
}
