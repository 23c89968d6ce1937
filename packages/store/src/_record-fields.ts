import {
  AUDIT_SEVERITIES,
  isPackageId,
  isPackageSource,
  isSemver,
  LINKABLE_KINDS,
  nullPrototypeRecord,
  orderedSource,
  PACKAGE_KINDS,
  type PackageSource,
  sourceProblem,
} from "@skillshelf/core";
import * as z from "zod/mini";

// what the schemas below and the fast reader beside them (`_fast-records.ts`) both check against

/**
 * The revision a source resolved to: a full git commit hash, an npm package's
 * `<version>@<integrity>`, or the `sha256:` digest of an MCP-served skill's `{uri, digest}` set.
 */
export const COMMIT_PATTERN =
  /^([0-9a-f]{40,64}|[0-9A-Za-z.+-]+@sha(256|384|512)-[A-Za-z0-9+/]+={0,2}|sha256:[0-9a-f]{64})$/;
/** Who signed what was installed: the signing key's fingerprint (`ssh:SHA256:…`). */
export const SIGNER_PATTERN = /^ssh:SHA256:[A-Za-z0-9+/]+$/;
export const DIGEST_PATTERN = /^[0-9a-f]{64}$/;
export const FORMATS = ["skillshelf", "claude-code"] as const;
export const TRUSTS = ["trusted", "foreign"] as const;
export const LINK_MODES = ["symlink", "copy"] as const;

/**
 * The fields `state.json` records and `lock.json` entries share, checked alike in both files,
 * built afresh by each file's schema when it is first used (a command that reads neither file
 * builds none of them at start).
 */
export function recordFields() {
  const text = z.string().check(z.minLength(1));
  const packageId = z.string().check(z.refine(isPackageId, "must be a package id"));

  // a package source as core's `SOURCE_FIELDS` describes one, whatever kinds it lists
  const source = z.pipe(
    z.custom<PackageSource>(isPackageSource, {
      error: (issue) => sourceProblem(issue.input) ?? "must be a package source",
    }),
    z.transform(orderedSource),
  );

  const kind = z.enum(PACKAGE_KINDS);
  const version = z.optional(z.string().check(z.refine(isSemver, "must be SemVer")));
  const format = z.enum(FORMATS);
  const trust = z.enum(TRUSTS);
  const commit = z.optional(
    z
      .string()
      .check(
        z.regex(
          COMMIT_PATTERN,
          "must be a full commit hash, <version>@<integrity> or sha256:<digest>",
        ),
      ),
  );
  /**
   * The audit verdict on the tree a record digests: the rule table's version it was
   * read with, the rules that found something (`highest`: the worst severity among them) and the
   * rules a person or a policy approved. Bound to the record's digest: a new tree is audited anew.
   */
  const audit = z.optional(
    z.strictObject({
      rules: text,
      highest: z.optional(z.enum(AUDIT_SEVERITIES)),
      found: z.optional(z.array(text)),
      approved: z.optional(z.array(text)),
    }),
  );

  const signer = z.optional(
    z.string().check(z.regex(SIGNER_PATTERN, "must be ssh:SHA256:<fingerprint>")),
  );

  const digest = z
    .string()
    .check(z.regex(DIGEST_PATTERN, "must be a 64-character lowercase hex digest"));

  /** Values keyed by package id, read into a null-prototype record so no id resolves to something inherited. */
  function byPackageId<T extends z.core.SomeType>(value: T) {
    return z.record(packageId, value).check(z.overwrite(nullPrototypeRecord));
  }

  const relativeInside = z
    .string()
    .check(z.refine(isRelativeInside, "must be a relative path with no `..` segment"));

  // what a link records in the state and the lock: the agent whose folder holds it,
  // the kind of resource, what it exposes (relative to the scope's library folder) and how
  const linkShape = {
    agent: text,
    kind: z.enum(LINKABLE_KINDS),
    target: relativeInside,
    package: z.optional(packageId),
    mode: z.enum(LINK_MODES),
    bare: z.optional(z.literal(true)),
  };

  /** Links keyed by their path relative to the scope's folder (home, or the project folder). */
  function byLinkPath<T extends z.core.SomeType>(value: T) {
    return z.record(relativeInside, value).check(z.overwrite(nullPrototypeRecord));
  }

  return {
    text,
    packageId,
    source,
    kind,
    version,
    format,
    trust,
    commit,
    audit,
    signer,
    digest,
    linkShape,
    byPackageId,
    byLinkPath,
  };
}

/**
 * A relative path as links record them: `/`-separated segments, none empty, `.` or `..`, and no
 * backslash, so it names a place inside the folder it is relative to on every platform.
 */
export function isRelativeInside(path: string): boolean {
  if (path.length === 0 || path.includes("\\") || path.includes("\0")) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/** A plain object whose every key and value is a non-empty string: a record's `files`. */
export function isFingerprints(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const key in value) {
    const fingerprint = (value as Record<string, unknown>)[key];
    if (key === "" || typeof fingerprint !== "string" || fingerprint === "") return false;
  }
  return true;
}

/** A `claude-code` package is always `foreign`. */
export function isForeignWhenClaudeCode(value: { format: string; trust: string }): boolean {
  return value.format !== "claude-code" || value.trust === "foreign";
}

/** No value twice. */
export function isDistinct(values: readonly unknown[]): boolean {
  return new Set(values).size === values.length;
}
