import type { AuditSeverity } from "@skillshelf/core";

/** One policy file's rules, as written (`policy.yaml`: every key optional, none unknown). */
export interface PolicyRules {
  readonly sources?: { readonly allow: readonly string[] } | undefined;
  readonly block?:
    | {
        readonly packages?: readonly string[] | undefined;
        readonly skills?: readonly string[] | undefined;
      }
    | undefined;
  readonly audit?: { readonly "max-severity": AuditSeverity } | undefined;
  readonly "allowed-tools"?: { readonly widest: readonly string[] } | undefined;
  readonly signatures?:
    | { readonly required?: boolean | undefined; readonly keys?: readonly string[] | undefined }
    | undefined;
  readonly pins?: { readonly required: boolean } | undefined;
  /** URL prefixes rewritten to an internal mirror before anything is fetched, first match wins. */
  readonly mirrors?: readonly { readonly from: string; readonly to: string }[] | undefined;
  /** Refuse any fetch no mirror rule rewrote (`mirror_required`). */
  readonly "mirror-only"?: boolean | undefined;
}

/** The policy rules an org's `policy` holds: `policy.yaml`'s, mirrors aside (they are the org's own key). */
export type OrgPolicyRules = Omit<PolicyRules, "mirrors" | "mirror-only">;
