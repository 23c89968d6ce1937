import { statSync } from "node:fs";
import { resolve } from "node:path";
import {
  type Environment,
  identityKey,
  type PackageSource,
  parseRequirementRef,
} from "@skillshelf/core";
import { type IndexRow, parseSourceSpec } from "@skillshelf/sources";
import { refusal } from "./_refusal.js";
import type { Refusal } from "./types.js";

/** What an install target names: an index row, or a source to stage and read. */
export type InstallTarget =
  | { readonly kind: "row"; readonly text: string; readonly row: IndexRow }
  | { readonly kind: "source"; readonly text: string; readonly source: PackageSource }
  | { readonly kind: "refused"; readonly text: string; readonly refusal: Refusal };

/**
 * Resolve what `install` was asked for: an existing folder (a path always wins over a
 * same-spelled name), a `kind:name` ref or a bare name in the indexes (`package_unknown`;
 * `package_ambiguous` when a bare name is offered as several kinds), else a source as a person
 * types it (`parseSourceSpec`: `owner/repo`, a git URL with `//subfolder` and `#ref`, an archive
 * URL, a local bare repository).
 */
export function resolveInstallTarget(
  text: string,
  rows: readonly IndexRow[],
  environment: Environment,
): InstallTarget {
  const path = resolve(environment.cwd, text);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    // a bare repository is fetched with git, any other folder copied
    const spec = parseSourceSpec(text, environment.cwd);
    const source = spec.ok ? spec.source : { type: "local" as const, path };
    return { kind: "source", text, source };
  }
  const ref = parseRequirementRef(text);
  if (ref !== undefined) {
    const row = rows.find(
      (candidate) => candidate.kind === ref.kind && candidate.name === ref.name,
    );
    return row === undefined ? unknown(text) : { kind: "row", text, row };
  }
  if (/^[a-z0-9][a-z0-9.-]*$/.test(text)) {
    const named = rows.filter((row) => row.name === text);
    if (named.length === 1) return { kind: "row", text, row: named[0] as IndexRow };
    if (named.length > 1)
      return {
        kind: "refused",
        text,
        refusal: refusal(
          "package_ambiguous",
          `${text} is offered as ${named.map((row) => identityKey(row.kind, row.name)).join(" and ")}`,
          { candidates: named.map((row) => identityKey(row.kind, row.name)) },
        ),
      };
    return unknown(text);
  }
  const parsed = parseSourceSpec(text, environment.cwd);
  if (parsed.ok) return { kind: "source", text, source: parsed.source };
  return { kind: "refused", text, refusal: refusal(parsed.code, `${text}: ${parsed.problem}`) };
}

// --- internal ---

function unknown(text: string): InstallTarget {
  return {
    kind: "refused",
    text,
    refusal: refusal("package_unknown", `no index offers ${text}, and it is not a folder`),
  };
}
