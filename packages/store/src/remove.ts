import { existsSync } from "node:fs";
import { join } from "node:path";
import { SkillshelfError, siblingName } from "@skillshelf/core";
import { assertNoBrokenDependents } from "./_dependents.js";
import { followPackageLinks } from "./_link-follow.js";
import { commitStep } from "./_step.js";
import { runWriter } from "./_writer.js";
import { withTableEntry } from "./cache.js";
import type { CopyFacts, ScopeTarget, WriteResult } from "./types.js";

/** What `removePackage` removes and what it was reviewed against. */
export interface RemovePackageInput extends ScopeTarget {
  readonly id: string;
  readonly reviewed: CopyFacts;
}

/**
 * Remove a package copy (its record, its disabled flag, its folder and its links into other
 * agents' folders) in one locked step. Refuses when there is neither a record nor a folder
 * (`not_installed`), a stale plan (`stale_plan`) and breaking a loadable dependent
 * (`dependents`). The tree is moved aside, the state committed, and the moved tree deleted, unless
 * its bytes differ from its record: then it is kept and returned as `packageBackup`. A crash
 * leaves the copy and its links as before or removed.
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
      });
    assertNoBrokenDependents({ ...input, change: "remove" });
    // the copy's links go with it
    const follow = followPackageLinks(
      {
        ...context.state,
        installed: withTableEntry(context.state.installed, id, null),
        disabled: context.state.disabled.filter((other) => other !== id),
      },
      id,
      undefined,
    );
    const step = commitStep(context, {
      operation: "remove",
      state: follow.state,
      ids: [id],
      linkKeys: follow.changed,
      trees: [
        {
          id,
          operation: "remove",
          before,
          after: null,
          backup: hasTree ? siblingName(id, "removed") : null,
          staging: null,
        },
      ],
      links: follow.moves,
    });
    const kept = step.kept.get(id);
    return {
      id,
      scope,
      dir: target,
      record: undefined,
      ...(kept === undefined ? {} : { packageBackup: kept }),
      diagnostics: [...context.diagnostics, ...step.diagnostics],
    };
  });
}
