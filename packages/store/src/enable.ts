import { join } from "node:path";
import { createDiagnostic, SkillshelfError } from "@skillshelf/core";
import { assertNoBrokenDependents } from "./_dependents.js";
import { foundAt, isOurLink, linkBase, linkLibrary } from "./_link-files.js";
import { linkMove } from "./_link-moves.js";
import { commitStep } from "./_step.js";
import type { LinkMove } from "./_step-journal.js";
import { runWriter, type WriterContext } from "./_writer.js";
import type { CopyFacts, ScopeTarget, WriteResult } from "./types.js";

/** What `setEnabled` switches and what it was reviewed against. */
export interface SetEnabledInput extends ScopeTarget {
  readonly id: string;
  readonly enabled: boolean;
  readonly reviewed: CopyFacts;
}

/**
 * Switch an installed copy on or off by writing `state.json` atomically under the scope lock,
 * taking its links out of the agents' folders when it goes off and making them again when it
 * comes back on (they stay recorded, so the lock keeps them); a link of its in the way of
 * something Skillshelf did not make refuses enabling (`link_conflict`).
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
    if (!input.enabled) assertNoBrokenDependents({ ...input, ids: [id], change: "disable" });
    const others = context.state.disabled.filter((other) => other !== id);
    const state = { ...context.state, disabled: input.enabled ? others : [...others, id] };
    const step = commitStep(context, {
      operation: input.enabled ? "enable" : "disable",
      state,
      ids: [id],
      linkKeys: [],
      links: switchedLinks(context, id, input.enabled),
    });
    return { id, scope, dir, record, diagnostics: [...context.diagnostics, ...step.diagnostics] };
  });
}

// --- internal ---

/** The link files of copy `id` that go when it is disabled, or come back when it is enabled. */
function switchedLinks(context: WriterContext, id: string, enabled: boolean): LinkMove[] {
  const { environment, scope } = context.target;
  const base = linkBase(environment, scope);
  const library = linkLibrary(environment, scope);
  return Object.entries(context.state.links ?? {}).flatMap(([key, record]): LinkMove[] => {
    if (record.package !== id) return [];
    if (!enabled) return [linkMove("take", key, record)];
    const path = join(base, key);
    if (foundAt(path).kind === "nothing") return [linkMove("make", key, record)];
    if (isOurLink(path, join(library, record.target), record)) return [];
    throw new SkillshelfError(
      "link_conflict",
      `${path} is in the way of ${id}'s link, and Skillshelf did not make it`,
      { path },
    );
  });
}
