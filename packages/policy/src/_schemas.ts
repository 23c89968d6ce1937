// The policy file's zod schemas, kept out of every declaration a user's compiler reads (zod is
// bundled, not a dependency).
import { AUDIT_SEVERITIES } from "@skillshelf/core";
import * as z from "zod/mini";
import type { OrgPolicyRules, PolicyRules } from "./rules.js";

/** One mirror rule's schema: `from` and `to` URL prefixes (or git's `user@host:` form). */
export function mirrorRuleSchema(): z.ZodMiniType<{ readonly from: string; readonly to: string }> {
  const mirrorPrefix = z
    .string()
    .check(
      z.regex(
        /^([a-z][a-z0-9+.-]*:\/\/[^\s]+|[^\s@/]+@[^\s:/]+:[^\s]*)$/i,
        "must be a URL prefix such as https://github.com/",
      ),
    );
  return z.strictObject({ from: mirrorPrefix, to: mirrorPrefix });
}

/** The policy file's schema, built when a policy file is first read. */
export const policySchema: z.ZodMiniType<PolicyRules> = z.lazy(() =>
  z.strictObject(policyRulesShape()),
);

/** An org file's `policy` schema: a policy file's, without mirrors. */
export function orgPolicySchema(): z.ZodMiniType<OrgPolicyRules> {
  const { mirrors: _mirrors, "mirror-only": _only, ...rules } = policyRulesShape();
  return z.strictObject(rules);
}

// --- internal ---

/** Each key of a policy file and its schema. */
function policyRulesShape() {
  const list = z.array(z.string().check(z.minLength(1)));
  return {
    sources: z.optional(z.strictObject({ allow: list })),
    block: z.optional(z.strictObject({ packages: z.optional(list), skills: z.optional(list) })),
    audit: z.optional(z.strictObject({ "max-severity": z.enum(AUDIT_SEVERITIES) })),
    "allowed-tools": z.optional(z.strictObject({ widest: list })),
    signatures: z.optional(
      z.strictObject({ required: z.optional(z.boolean()), keys: z.optional(list) }),
    ),
    pins: z.optional(z.strictObject({ required: z.boolean() })),
    mirrors: z.optional(z.array(mirrorRuleSchema())),
    "mirror-only": z.optional(z.boolean()),
  };
}
