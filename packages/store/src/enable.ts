import { join } from "node:path";
import { createDiagnostic, SkillshelfError } from "@skillshelf/core";
import { assertNoBrokenDependents } from "./_dependents.js";
import { commitStep } from "./_step.js";
import { runWriter } from "./_writer.js";
import type { CopyFacts, ScopeTarget, WriteResult } from "./types.js";

/** What `setEnabled` switches and what it was reviewed against. */
export interface SetEnabledInput extends ScopeTarget {
  readonly id: string;
  readonly enabled: boolean;
  readonly reviewed: CopyFacts;
}

/**
 * Switch an installed copy on or off by writing `state.json` atomically under the scope lock.
 * Refuses a copy with no record (`not_installed`), a stale plan (`stale_plan`) and disabling
 * something a loadable dependent needs (`dependents`). Switching to the state it already has
 * writes nothing and says `unchanged`.
 */
export function setEnabled(input: SetEnabledInput): WriteResult {
  const { id, scope } = input;
  return runWriter(input, (context) => {
    const record = context.state.installed[id];
    const dir = join(context.lock.dir, id);
    if (record === undefined)
      throw new SkillshelfError("not_installed", `${id} is not installed in the ${scope} scope`, {
        path: dir,
        hint: "check the id and scope with skillshelf list --kind packages",
      });
    const disabled = context.state.disabled.includes(id);
    if (disabled !== input.enabled)
      return {
        id,
        scope,
        dir,
        record,
        diagnostics: [
          ...context.diagnostics,
          createDiagnostic(
            "info",
            "unchanged",
            `${scope}:${id} is already ${input.enabled ? "enabled" : "disabled"}`,
            { path: dir },
          ),
        ],
      };
    if (!input.enabled) assertNoBrokenDependents({ ...input, change: "disable" });
    const others = context.state.disabled.filter((other) => other !== id);
    const state = { ...context.state, disabled: input.enabled ? others : [...others, id] };
    const step = commitStep(context, {
      operation: input.enabled ? "enable" : "disable",
      state,
      ids: [id],
      linkKeys: [],
    });
    return { id, scope, dir, record, diagnostics: [...context.diagnostics, ...step.diagnostics] };
  });
}
