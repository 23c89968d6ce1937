import { dirname, join, relative, sep } from "node:path";
import {
  canonicalJsonFile,
  type Environment,
  type PackageScope,
  type ReadResult,
  SkillshelfError,
} from "@skillshelf/core";
import { writeScopeFile } from "./_atomic.js";
import { consentsSchema } from "./_consent-schema.js";
import { faultHook } from "./_faults.js";
import type { Consent, ConsentFile } from "./_record-types.js";
import { readStrictFile, type StrictFile } from "./_strict-file.js";
import { runWriter } from "./_writer.js";
import { ENGLISH } from "./_zod-english.js";
import type { ScopeCache } from "./cache.js";
import { lockRoot } from "./lockfile.js";
import { packagesDir } from "./scopes.js";

export type { Consent, ConsentFile } from "./_record-types.js";

/** No consent given. */
export const EMPTY_CONSENTS: ConsentFile = { version: 1, trusted: {} };

const MAX_CONSENT_BYTES = 4 * 1024 * 1024;

/** Where a scope's consents are: `trust.json` in its library, beside `lock.json`. */
export function consentFilePath(environment: Environment, scope: PackageScope): string {
  return join(dirname(packagesDir(environment, scope)), "trust.json");
}

/** The key of a consent to an installed package. */
export function packageConsentKey(id: string): string {
  return `package:${id}`;
}

/**
 * The key of a consent to a skill an upstream MCP server serves, relayed by a gateway: `upstream:`
 * and the source that names the skill on that server (`mcp+https://host/mcp//refunds`).
 */
export function upstreamConsentKey(source: string): string {
  return `upstream:${source}`;
}

/**
 * The key of a consent to the folder `path` of a scope: `folder:` and the path relative to the
 * scope's folder (home, or the project; see `lockRoot`), `/`-separated.
 */
export function folderConsentKey(
  environment: Environment,
  scope: PackageScope,
  path: string,
): string {
  return `folder:${relative(lockRoot(environment, scope), path).split(sep).join("/")}`;
}

/** The folder a `folder:` consent key of a scope names. */
export function consentFolder(environment: Environment, scope: PackageScope, key: string): string {
  return join(lockRoot(environment, scope), ...key.slice("folder:".length).split("/"));
}

/**
 * Read a scope's `trust.json` strictly: absent is no consent; a symlink or hard link is
 * `trust_file_unsafe`; anything off the format is `trust_file_invalid`, and nothing is trusted
 * from it (it is never overwritten until fixed).
 */
export function readConsents(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): ReadResult<StrictFile<ConsentFile>> {
  return readStrictFile({
    path: consentFilePath(environment, scope),
    what: "trust file",
    maxBytes: MAX_CONSENT_BYTES,
    empty: EMPTY_CONSENTS,
    parse: (value) => consentsSchema.safeParse(value, ENGLISH),
    codes: { invalid: "trust_file_invalid", unsafe: "trust_file_unsafe" },
    consequence: "nothing in it is trusted, and nothing will overwrite it until it is fixed",
    cache,
  });
}

/**
 * Set (or, with `null`, take back) the consent `key` of a scope, inside the scope's lock taken as
 * every writer takes it (an interrupted change it finds is settled first): the file is read
 * strictly (one that does not parse is refused, never overwritten) and written atomically. The
 * consents after the change.
 */
export function writeConsent(
  target: { readonly environment: Environment; readonly scope: PackageScope },
  key: string,
  value: Consent | null,
): ConsentFile {
  return runWriter(target, () => {
    const read = readConsents(target.environment, target.scope);
    if (!read.ok) {
      const [first] = read.diagnostics;
      throw new SkillshelfError(first?.code ?? "trust_file_invalid", first?.message ?? "", {
        path: first?.path,
      });
    }
    const trusted: Record<string, Consent> = { ...read.value.value.trusted };
    if (value === null) delete trusted[key];
    else trusted[key] = value;
    const next: ConsentFile = { version: 1, trusted };
    writeScopeFile({
      path: read.value.path,
      text: canonicalJsonFile(next),
      expected: read.value.text,
      fault: faultHook(target),
      point: "trust-written",
    });
    return next;
  });
}
