import {
  AUDIT_SEVERITIES,
  isPackageId,
  isPackageSource,
  isSemver,
  LINKABLE_KINDS,
  nullPrototypeRecord,
  orderedSource,
  PACKAGE_KINDS,
} from "@skillshelf/core";
import { regexes } from "zod/v4/core";
import {
  COMMIT_PATTERN,
  DIGEST_PATTERN,
  FORMATS,
  isDistinct,
  isFingerprints,
  isForeignWhenClaudeCode,
  isRelativeInside,
  LINK_MODES,
  SIGNER_PATTERN,
  TRUSTS,
} from "./_record-fields.js";
import type { LockFile, ScopeState } from "./_record-types.js";

/*
 * `state.json` and `lock.json` as our writers leave them, read without zod. In a fresh process
 * zod's generic parse runs interpreted and costs ~40 µs a record (~70 ms for the state and the lock
 * of 1,000 packages, the largest part of `verify`, `remove` and `update` beyond the work itself).
 * This reader takes only what the schema takes and gives back what the schema gives back: the
 * same keys in the schema's order, sources ordered, tables without a prototype, every check the
 * same predicate or pattern the schema uses (test/fast-records.test.ts compares both over
 * generated and hostile documents). Anything it does not take (a broken file, and a few valid
 * shapes our writers never write, such as a `__proto__` key) goes to the schema, which says what
 * is wrong, or takes it.
 */

/** `lock.json`'s value as `parseLockValue` would give it, or `undefined`: ask the schema. */
export function fastLock(value: unknown): LockFile | undefined {
  return attempt(() => {
    const lock = only(value, LOCK_KEYS);
    if (lock.version !== 1) throw NOT_FAST;
    return assembled([
      ["version", 1],
      ["packages", table(lock.packages, packageId, lockEntry)],
      ["links", optional(lock.links, (links) => table(links, relativeInside, link))],
    ]) as LockFile;
  });
}

/** `state.json`'s value as `parseStateValue` would give it, or `undefined`: ask the schema. */
export function fastState(value: unknown): ScopeState | undefined {
  return attempt(() => {
    const state = only(value, STATE_KEYS);
    if (state.version !== 1) throw NOT_FAST;
    const disabled = list(state.disabled, packageId);
    if (!isDistinct(disabled)) throw NOT_FAST;
    return assembled([
      ["version", 1],
      ["disabled", disabled],
      ["installed", table(state.installed, packageId, (record) => installRecord(record, true))],
      ["links", optional(state.links, (links) => table(links, relativeInside, linkRecord))],
    ]) as ScopeState;
  });
}

// --- internal ---

type Fields = Record<string, unknown>;

/** Thrown inside `attempt` when the fast reader does not take a value. */
const NOT_FAST = Symbol("not fast");

function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error === NOT_FAST) return undefined;
    throw error;
  }
}

const LOCK_KEYS = new Set(["version", "packages", "links"]);
const STATE_KEYS = new Set(["version", "disabled", "installed", "links"]);
const LOCK_ENTRY_KEYS = new Set([
  "kind",
  "version",
  "format",
  "source",
  "commit",
  "index",
  "mirror",
  "digest",
  "trust",
  "audit",
  "signer",
  "enabled",
  "requires",
]);
const RECORD_KEYS = new Set([
  "kind",
  "version",
  "format",
  "installedAt",
  "origin",
  "contentDigest",
  "trust",
  "audit",
  "signer",
  "requires",
  "files",
]);
const CURRENT_RECORD_KEYS = new Set([...RECORD_KEYS, "previous"]);
const ORIGIN_KEYS = new Set(["source", "commit", "index", "mirror"]);
const AUDIT_KEYS = new Set(["rules", "highest", "found", "approved"]);
const LINK_KEYS = new Set(["agent", "kind", "target", "package", "mode"]);
const LINK_RECORD_KEYS = new Set([...LINK_KEYS, "digest"]);
const INSTALLED_AT = regexes.datetime({ offset: true, local: false, precision: null });

/** A plain object holding no key but `keys`, each its own and none `undefined`. */
function only(value: unknown, keys: ReadonlySet<string>): Fields {
  if (!isPlain(value)) throw NOT_FAST;
  for (const key in value)
    if (!keys.has(key) || !Object.hasOwn(value, key) || value[key] === undefined) throw NOT_FAST;
  return value;
}

function isPlain(value: unknown): value is Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A table keyed by `key`-checked names, as the schema's `byPackageId` and `byLinkPath` give it. */
function table<T>(
  value: unknown,
  key: (name: string) => string,
  read: (value: unknown) => T,
): Record<string, T> {
  if (!isPlain(value) || Object.getOwnPropertySymbols(value).length > 0) throw NOT_FAST;
  const out: Record<string, T> = {};
  for (const name in value) {
    if (name === "__proto__" || !Object.hasOwn(value, name)) throw NOT_FAST;
    out[key(name)] = read(value[name]);
  }
  return nullPrototypeRecord(out);
}

function list<T>(value: unknown, read: (item: unknown) => T): T[] {
  if (!Array.isArray(value)) throw NOT_FAST;
  const items: T[] = [];
  for (let index = 0; index < value.length; index++) items.push(read(value[index]));
  return items;
}

function text(value: unknown): string {
  if (typeof value !== "string" || value === "") throw NOT_FAST;
  return value;
}

function matching(value: unknown, test: (text: string) => boolean): string {
  if (typeof value !== "string" || !test(value)) throw NOT_FAST;
  return value;
}

function oneOf<const T extends string>(value: unknown, values: readonly T[]): T {
  if (!values.includes(value as T)) throw NOT_FAST;
  return value as T;
}

const packageId = (value: unknown) => matching(value, isPackageId);
const relativeInside = (value: unknown) => matching(value, isRelativeInside);
const digest = (value: unknown) => matching(value, (text) => DIGEST_PATTERN.test(text));

function source(value: unknown) {
  if (!isPackageSource(value)) throw NOT_FAST;
  return orderedSource(value);
}

const version = (value: unknown) => matching(value, isSemver);
const commit = (value: unknown) => matching(value, (text) => COMMIT_PATTERN.test(text));
const signer = (value: unknown) => matching(value, (text) => SIGNER_PATTERN.test(text));

function optional<T>(value: unknown, read: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : read(value);
}

/** An object of the fields of `entries` whose value is not `undefined`, in that order. */
function assembled(entries: readonly (readonly [string, unknown])[]): Fields {
  const target: Fields = {};
  for (const [key, value] of entries) if (value !== undefined) target[key] = value;
  return target;
}

function audit(value: unknown) {
  const fields = only(value, AUDIT_KEYS);
  return assembled([
    ["rules", text(fields.rules)],
    ["highest", optional(fields.highest, (highest) => oneOf(highest, AUDIT_SEVERITIES))],
    ["found", optional(fields.found, (found) => list(found, text))],
    ["approved", optional(fields.approved, (approved) => list(approved, text))],
  ]);
}

function lockEntry(value: unknown) {
  const fields = only(value, LOCK_ENTRY_KEYS);
  if (typeof fields.enabled !== "boolean") throw NOT_FAST;
  return assembled([
    ["kind", oneOf(fields.kind, PACKAGE_KINDS)],
    ["version", optional(fields.version, version)],
    ["format", oneOf(fields.format, FORMATS)],
    ["source", source(fields.source)],
    ["commit", optional(fields.commit, commit)],
    ["index", optional(fields.index, text)],
    ["mirror", optional(fields.mirror, text)],
    ["digest", digest(fields.digest)],
    ["trust", oneOf(fields.trust, TRUSTS)],
    ["audit", optional(fields.audit, audit)],
    ["signer", optional(fields.signer, signer)],
    ["enabled", fields.enabled],
    ["requires", list(fields.requires, text)],
  ]) as LockFile["packages"][string];
}

function link(value: unknown) {
  return linkFields(only(value, LINK_KEYS)) as NonNullable<LockFile["links"]>[string];
}

function linkRecord(value: unknown) {
  const fields = only(value, LINK_RECORD_KEYS);
  return { ...linkFields(fields), digest: digest(fields.digest) } as NonNullable<
    ScopeState["links"]
  >[string];
}

function linkFields(fields: Fields): Fields {
  return assembled([
    ["agent", text(fields.agent)],
    ["kind", oneOf(fields.kind, LINKABLE_KINDS)],
    ["target", relativeInside(fields.target)],
    ["package", optional(fields.package, packageId)],
    ["mode", oneOf(fields.mode, LINK_MODES)],
  ]);
}

/** A state record; `current` when it may carry the record an update replaced. */
function installRecord(value: unknown, current: boolean): ScopeState["installed"][string] {
  const fields = only(value, current ? CURRENT_RECORD_KEYS : RECORD_KEYS);
  const origin = only(fields.origin, ORIGIN_KEYS);
  const record = assembled([
    ["kind", oneOf(fields.kind, PACKAGE_KINDS)],
    ["version", optional(fields.version, version)],
    ["format", oneOf(fields.format, FORMATS)],
    ["installedAt", matching(fields.installedAt, (at) => INSTALLED_AT.test(at))],
    [
      "origin",
      assembled([
        ["source", source(origin.source)],
        ["commit", optional(origin.commit, commit)],
        ["index", optional(origin.index, text)],
        ["mirror", optional(origin.mirror, text)],
      ]),
    ],
    ["contentDigest", digest(fields.contentDigest)],
    ["trust", oneOf(fields.trust, TRUSTS)],
    ["audit", optional(fields.audit, audit)],
    ["signer", optional(fields.signer, signer)],
    ["requires", optional(fields.requires, (requires) => list(requires, text))],
    ["files", optional(fields.files, files)],
    [
      "previous",
      current ? optional(fields.previous, (previous) => installRecord(previous, false)) : undefined,
    ],
  ]) as ScopeState["installed"][string];
  if (!isForeignWhenClaudeCode(record)) throw NOT_FAST;
  return record;
}

function files(value: unknown): Record<string, string> {
  if (!isFingerprints(value)) throw NOT_FAST;
  return value as Record<string, string>;
}
