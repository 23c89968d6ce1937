import { AUDIT_RULES } from "@skillshelf/audit";
import { closest } from "@skillshelf/core";
import { UsageError } from "../usage-error.js";

/** `--approve` values, comma-separated, each the id of an audit rule (a usage error otherwise). */
export function approvedRules(values: readonly string[]): string[] {
  const ids = AUDIT_RULES.map((rule) => rule.id);
  const rules = values.flatMap((value) => value.split(",")).filter((rule) => rule !== "");
  for (const rule of rules)
    if (!ids.includes(rule)) {
      const near = closest(rule, ids);
      throw new UsageError(
        "usage_invalid_value",
        `--approve ${rule}: no audit rule has this id (skillshelf audit --rules lists them)`,
        near === undefined ? undefined : { suggestion: `--approve ${near}` },
      );
    }
  return rules;
}
