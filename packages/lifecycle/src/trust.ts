import { existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  digestTree,
  type Environment,
  findAgent,
  type PackageScope,
  RESOURCE_KINDS,
  type ResourceRoot,
} from "@skillshelf/core";
import { readPolicy, severityViolation } from "@skillshelf/policy";
import { KINDS } from "@skillshelf/resources";
import {
  copyOf,
  folderConsentKey,
  packageConsentKey,
  readConsents,
  readPackageSnapshot,
  writeConsent,
} from "@skillshelf/store";
import { auditStaged } from "./_audit.js";
import { auditThreshold, violationRefusal } from "./_policy.js";
import { refusal } from "./_refusal.js";
import { upstreamKeyNamed } from "./gateway.js";
import type { AuditRequest, Refusal, TrustedItem, TrustResult } from "./types.js";

/** What to trust for the model, or take back. */
export interface TrustRequest {
  readonly environment: Environment;
  readonly scope: PackageScope;
  /**
   * An installed foreign package's id, an agent id (every folder of that agent in the scope), or
   * the path of another agent's folder.
   */
  readonly target: string;
  /** How the content is audited before it is trusted (as for an install). */
  readonly audit?: AuditRequest | undefined;
}

/**
 * Trust a foreign package or another agent's folder for the model, bound to its content's
 * digest: it is audited first like an install (findings at or above the threshold refuse it with
 * `audit_refused` unless approved; above the policy's highest severity with `policy_refused`),
 * then recorded in the scope's `trust.json`. A policy file that does not read refuses it. Any
 * change to its content afterwards revokes it (the read pass says `trust_revoked`).
 */
export function trustTarget(request: TrustRequest): TrustResult {
  const policy = readPolicy(request.environment);
  if (policy.invalid !== undefined) return { refusal: policy.invalid };
  const found = trustables(request);
  if ("refusal" in found) return found;
  const threshold = auditThreshold({ request, policy });
  const checked = found.items.map((item) => {
    const audited = auditStaged(item.path, { ...request.audit, threshold });
    return {
      item,
      ...audited,
      // above the policy's highest severity it is refused, approvals or not
      refusal:
        violationRefusal(
          [severityViolation(policy, audited.audit.highest)].filter((one) => one !== undefined),
          item.path,
        ) ?? audited.refusal,
    };
  });
  const refused = checked.find((one) => one.refusal !== undefined);
  if (refused?.refusal !== undefined) return { refusal: refused.refusal, audit: refused.audit };
  const at = new Date().toISOString();
  for (const { item, record } of checked)
    writeConsent(request, item.key, {
      digest: item.digest,
      at,
      ...(item.agent === undefined ? {} : { agent: item.agent }),
      audit: record,
    });
  return { trusted: checked.map(({ item, audit }) => ({ ...item, audit })) };
}

/**
 * Take back what `trust` gave for `target` in the scope: the package of that id, that folder, or
 * every folder of that agent, whether or not it still exists (`trust_target_unknown` when none is
 * trusted).
 */
export function untrustTarget(
  request: Omit<TrustRequest, "audit">,
): { readonly removed: readonly string[] } | { readonly refusal: Refusal } {
  const { environment, scope, target } = request;
  const read = readConsents(environment, scope);
  if (!read.ok) return { refusal: read.diagnostics[0] as Refusal };
  const agent = findAgent(target);
  const named = new Set([
    packageConsentKey(target),
    folderConsentKey(environment, scope, resolve(environment.cwd, target)),
  ]);
  const removed = Object.entries(read.value.value.trusted)
    .filter(
      ([key, consent]) =>
        named.has(key) ||
        (agent !== undefined && consent.agent === agent.id) ||
        upstreamKeyNamed(key, target, environment.cwd),
    )
    .map(([key]) => key);
  if (removed.length === 0)
    return {
      refusal: refusal(
        "trust_target_unknown",
        `nothing trusted in the ${scope} scope is ${target}`,
        {
          target,
          scope,
        },
      ),
    };
  for (const key of removed) writeConsent(request, key, null);
  return { removed };
}

// --- internal ---

type Trustable = Omit<TrustedItem, "audit">;

/** What `target` names in the scope: a foreign package, or other agents' folders that exist. */
function trustables(
  request: Omit<TrustRequest, "audit">,
): { readonly items: readonly Trustable[] } | { readonly refusal: Refusal } {
  const { environment, scope, target } = request;
  const snapshot = readPackageSnapshot(environment, { ids: [target] });
  const copy = copyOf(snapshot, scope, target);
  if (copy?.record !== undefined) {
    if (copy.observedDigest !== copy.record.contentDigest)
      return {
        refusal: refusal(
          "content_drift",
          `the files of ${target} changed since it was installed; trust what was installed, not an edited copy`,
          { id: target, scope },
        ),
      };
    return {
      items: [
        {
          key: packageConsentKey(target),
          path: copy.dir,
          digest: copy.record.contentDigest,
        },
      ],
    };
  }
  const agent = findAgent(target);
  const wanted = agent === undefined ? resolve(environment.cwd, target) : undefined;
  const roots = otherAgentRoots(environment, scope).filter((root) =>
    agent === undefined ? root.path === wanted : root.source === agent.id,
  );
  if (roots.length === 0)
    return {
      refusal: refusal(
        "trust_target_unknown",
        `${target} is neither a package installed in the ${scope} scope, nor an agent or an agent's folder that exists there`,
        { target, scope },
      ),
    };
  return {
    items: roots.map((root) => ({
      key: folderConsentKey(environment, scope, root.path),
      path: root.path,
      digest: digestTree(root.path).digest,
      agent: root.source,
    })),
  };
}

/** Every other agent's folder of the scope that exists, once each, as the read pass reads it. */
function otherAgentRoots(environment: Environment, scope: PackageScope): ResourceRoot[] {
  const roots = new Map<string, ResourceRoot>();
  for (const kind of RESOURCE_KINDS)
    for (const root of KINDS[kind].defaultRoots(environment))
      if (root.trust === "untrusted" && root.scope === scope && existsSync(root.path))
        roots.set(root.path, root);
  return [...roots.values()];
}
