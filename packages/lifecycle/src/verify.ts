import { join } from "node:path";
import { copyKey, type Environment } from "@skillshelf/core";
import { copyState, readOwnedResources } from "@skillshelf/inventory";
import {
  copyOf,
  effectiveOf,
  packagesDir,
  readPackageSnapshot,
  type ScopeCache,
} from "@skillshelf/store";
import { leftBy } from "./_operations.js";
import type { PlanStep, StepVerification } from "./types.js";

// what the state reader reports for a state.json it will not read
const UNREADABLE = new Set(["state_invalid", "state_unsafe"]);

/**
 * Read back what a committed step did: the tree (present and matching what the step
 * installed, absent, or changed), the record (recorded, absent, or unreadable when the state no
 * longer parses), the copy's state, the resources the loaders actually admit from it (through the
 * inventory), and which copy now counts. `ok` says whether that is what the step should have left.
 * Only this package's copies are read, with the default roots their resources compete with, so a
 * read-back costs the same however many other packages are installed; a clash with another
 * package's resource is what `readInventory` over everything shows.
 */
export function verifyStep(
  environment: Environment,
  step: VerifiedStep,
  evidence: StepVerification["evidence"] = "pre-refresh",
  cache?: ScopeCache,
): StepVerification {
  return verifySteps(environment, [step], evidence, cache)[0] as StepVerification;
}

/**
 * `verifyStep` for several committed steps at once (a batch of installs): one snapshot of their
 * copies and one read of the resources their copies offer serve every read-back, however many
 * there are.
 */
export function verifySteps(
  environment: Environment,
  steps: readonly VerifiedStep[],
  evidence: StepVerification["evidence"] = "pre-refresh",
  cache?: ScopeCache,
): StepVerification[] {
  const snapshot = readPackageSnapshot(environment, { ids: steps.map((step) => step.id), cache });
  const owned = readOwnedResources({ environment, snapshot, cache });
  return steps.map((step) => {
    const { id, scope } = step;
    const copy = copyOf(snapshot, scope, id);
    const statePath = join(packagesDir(environment, scope), "state.json");
    const record: StepVerification["record"] = snapshot.diagnostics.some(
      (diagnostic) => diagnostic.path === statePath && UNREADABLE.has(diagnostic.code),
    )
      ? "unreadable"
      : copy?.record === undefined
        ? "absent"
        : "recorded";
    const expectedDigest = step.source?.digest ?? copy?.record?.contentDigest;
    // the snapshot digested the copy's tree; a tree it could not digest is as good as absent
    const tree: StepVerification["tree"] =
      copy?.observedDigest === undefined
        ? "absent"
        : copy.observedDigest === expectedDigest
          ? "present"
          : "changed";
    const enabled = record !== "unreadable" && copy?.enabled === true;
    const present = tree === "present" && record === "recorded";
    const ok = {
      present,
      absent: tree === "absent" && record === "absent",
      enabled: present && enabled,
      disabled: present && !enabled,
    }[leftBy(step.operation)];
    return {
      evidence,
      tree,
      record,
      copy: copy === undefined ? "absent" : copyState(copy),
      resources: [...(owned.get(copyKey({ scope, id })) ?? [])],
      effective: effectiveOf(snapshot, id),
      ok,
    };
  });
}

// --- internal ---

type VerifiedStep = Pick<PlanStep, "operation" | "id" | "scope" | "ref" | "source">;
