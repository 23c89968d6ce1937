import { join } from "node:path";
import { createDiagnostic, SkillshelfError, scopeAnchor, scopeLibraryDir } from "@skillshelf/core";
import { copyBatch, type WriteBatch } from "./_batch.js";
import { assertNoBrokenDependents } from "./_dependents.js";
import { foundAt, isOurLink } from "./_link-files.js";
import { linkMove } from "./_link-moves.js";
import type { InstallRecord } from "./_record-types.js";
import { commitStep } from "./_step.js";
import type { LinkMove } from "./_step-journal.js";
import { assertCopyWritable, type WriterContext } from "./_writer.js";
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
  const { results, failure } = setEnabledMany([input]);
  if (failure !== undefined) throw failure.error;
  return results[0] as WriteResult;
}

/**
 * Switch several copies of one scope as one commit, each checked as `setEnabled` checks it, in
 * order: the ones before the first refused switch under one scope lock with one `state.json`
 * write, so a crash leaves all of them switched or none. Dependents are judged with every copy
 * the batch disables off at once; one it would break refuses the whole batch. Every input must
 * name the same scope, and an id may appear once.
 */
export function setEnabledMany(inputs: readonly SetEnabledInput[]): WriteBatch {
  return copyBatch("setEnabledMany", inputs, switchable, (context, checked) =>
    switchCopies(
      context,
      checked.map(({ input, value }) => ({ input, record: value })),
    ),
  );
}

// --- internal ---

/** Inside the lock: the record of a copy that exists and is as reviewed. */
function switchable(context: WriterContext, input: SetEnabledInput): InstallRecord {
  const { id } = input;
  assertCopyWritable(context, id, input.reviewed);
  const record = context.state.installed[id];
  if (record === undefined)
    throw new SkillshelfError(
      "not_installed",
      `${id} is not installed in the ${input.scope} scope`,
      {
        path: join(context.lock.dir, id),
      },
    );
  return record;
}

/** One step switching every checked copy not already as asked; the others say `unchanged`. */
function switchCopies(
  context: WriterContext,
  checked: readonly { readonly input: SetEnabledInput; readonly record: InstallRecord }[],
): WriteResult[] {
  const { scope } = context.target;
  const isDisabled = new Set(context.state.disabled);
  const switching = checked.filter(({ input }) => isDisabled.has(input.id) === input.enabled);
  const disabling = switching.filter(({ input }) => !input.enabled).map(({ input }) => input.id);
  if (disabling.length > 0)
    assertNoBrokenDependents({ ...context.target, ids: disabling, change: "disable" });
  const switched = new Set(switching.map(({ input }) => input.id));
  const step =
    switching.length === 0
      ? undefined
      : commitStep(context, {
          operation: switching.every(({ input }) => input.enabled) ? "enable" : "disable",
          state: {
            ...context.state,
            disabled: [
              ...context.state.disabled.filter((other) => !switched.has(other)),
              ...disabling,
            ],
          },
          ids: [...switched],
          linkKeys: [],
          links: switching.flatMap(({ input }) => switchedLinks(context, input.id, input.enabled)),
        });
  return checked.map(({ input, record }, index) => {
    const dir = join(context.lock.dir, input.id);
    const first = index === 0 ? [...context.diagnostics, ...(step?.diagnostics ?? [])] : [];
    if (switched.has(input.id)) return { id: input.id, scope, dir, record, diagnostics: first };
    const unchanged = createDiagnostic(
      "info",
      "unchanged",
      `${scope}:${input.id} is already ${input.enabled ? "enabled" : "disabled"}`,
      { path: dir },
    );
    return { id: input.id, scope, dir, record, diagnostics: [...first, unchanged] };
  });
}

/** The link files of copy `id` that go when it is disabled, or come back when it is enabled. */
function switchedLinks(context: WriterContext, id: string, enabled: boolean): LinkMove[] {
  const { environment, scope } = context.target;
  const base = scopeAnchor(environment, scope);
  const library = scopeLibraryDir(environment, scope);
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
