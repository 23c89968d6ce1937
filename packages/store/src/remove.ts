import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SkillshelfError, siblingName, syncFolder } from "@skillshelf/core";
import { assertNoBrokenDependents } from "./_dependents.js";
import { journalPath, keepIfChanged, writeJournals } from "./_journal.js";
import { followPackageLinks } from "./_link-follow.js";
import { dropPrevious } from "./_previous.js";
import { commitOrRollBack, commitState, runWriter } from "./_writer.js";
import { withTableEntry } from "./cache.js";
import type { CopyFacts, ScopeTarget, WriteResult } from "./types.js";

/** What `removePackage` removes and what it was reviewed against. */
export interface RemovePackageInput extends ScopeTarget {
  readonly id: string;
  readonly reviewed: CopyFacts;
}

/**
 * Remove a package copy (its record, its disabled flag, its folder and its links into other
 * agents' folders) under the scope lock.
 * Refuses when there is neither a record nor a folder (`not_installed`), a stale plan
 * (`stale_plan`) and breaking a loadable dependent (`dependents`). The tree is moved aside,
 * the state committed, and the moved tree deleted, unless its bytes differ from its record: then
 * it is kept and returned as `packageBackup`. A crash leaves the copy as before or removed.
 */
export function removePackage(input: RemovePackageInput): WriteResult {
  const { id, scope } = input;
  return runWriter(input, (context) => {
    const dir = context.lock.dir;
    const target = join(dir, id);
    const before = context.state.installed[id] ?? null;
    const hasTree = existsSync(target);
    if (before === null && !hasTree)
      throw new SkillshelfError("not_installed", `${id} is not installed in the ${scope} scope`, {
        path: target,
        hint: "check the id and scope with skillshelf list --kind packages",
      });
    assertNoBrokenDependents({ ...input, change: "remove" });
    // the copy's links go with it
    const follow = followPackageLinks(
      context,
      {
        ...context.state,
        installed: withTableEntry(context.state.installed, id, null),
        disabled: context.state.disabled.filter((other) => other !== id),
      },
      id,
      undefined,
    );
    const removed = hasTree ? siblingName(id, "removed") : null;
    const journal = {
      version: 1,
      id,
      operation: "remove",
      pid: process.pid,
      before,
      after: null,
      backup: removed,
      staging: null,
    } as const;
    return commitOrRollBack(context, () => {
      writeJournals(dir, [journal], context.fault);
      if (removed !== null) {
        renameSync(target, join(dir, removed));
        context.fault("moved-old");
      }
      commitState(context, follow.state, [id], follow.changed);
      const linkDiagnostics = follow.afterCommit();
      const kept =
        removed === null ? undefined : keepIfChanged(dir, id, join(dir, removed), before);
      dropPrevious(dir, id);
      rmSync(journalPath(dir, id), { force: true });
      syncFolder(dir);
      context.fault("settled");
      return {
        id,
        scope,
        dir: target,
        record: undefined,
        ...(kept === undefined ? {} : { packageBackup: kept }),
        diagnostics: [...context.diagnostics, ...linkDiagnostics],
      };
    });
  });
}
