import { lstatSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  parseJsonDocument,
  type ReadResult,
  readTextDocument,
  realpathOrUndefined,
  resolveContained,
  type SkillPackageFacts,
  schemaDiagnostics,
  sha256,
  skillPackageManifestText,
} from "@skillshelf/core";
import { readClaudePlugin } from "./_claude-plugin.js";
import { checkDeclarations } from "./_declarations.js";
import { EXTENSION_KEY, parseManifestValue } from "./_manifest-schema.js";
import { checkContained } from "./_paths.js";
import type { ScopeCache } from "./cache.js";
import type { ManifestResult, PackageManifest } from "./types.js";

/** Largest manifest read. */
export const MAX_MANIFEST_BYTES: number = 1024 * 1024;

// where a package folder's manifest is read from, ours first
const MANIFEST_ENTRIES = ["plugin.json", ".claude-plugin/plugin.json"] as const;

/**
 * Read the manifest of the package folder `dir`: our `plugin.json` (format `skillshelf`), else a
 * Claude Code plugin's `.claude-plugin/plugin.json` (format `claude-code`). Every finding is a
 * diagnostic with a stable code on the manifest's path; `manifest` is set only when there is no
 * error. Declared folders and component files must exist inside the package, also after
 * resolving symlinks. Never throws for bad content. `known`: the folder's tree digest, as the
 * caller just computed it, and a cache: a manifest read cleanly from a tree of that digest is
 * taken from it (its path moved to `dir`), and a clean read is kept there.
 */
export function readPackageManifest(
  dir: string,
  known?: { readonly digest: string; readonly cache: ScopeCache },
): ManifestResult {
  return keptOrRead(dir, known, () => inPackage(dir, readManifestAt));
}

/**
 * The manifest of the skill package staged in `dir` with `skillPackageManifestText(skill)` as
 * its `plugin.json` (core; a collection's skill staged by `sources`), made from the facts
 * instead of read back: that text declares the folder itself as the skills folder and its
 * `SKILL.md` as the one component, and the facts were checked when the skill was read. The
 * folder must be one (`package_missing`) and its `SKILL.md` a file inside it (checked as a read
 * checks a declared component). `known` as for `readPackageManifest`.
 */
export function skillPackageManifest(
  dir: string,
  skill: SkillPackageFacts,
  known?: { readonly digest: string; readonly cache: ScopeCache },
): ManifestResult {
  return keptOrRead(dir, known, () => {
    const root = resolve(dir);
    if (lstatSync(root, { throwIfNoEntry: false })?.isDirectory() !== true)
      return notAPackage(root);
    const manifestPath = join(root, "plugin.json");
    const component = { kind: "skill", id: skill.name, path: "SKILL.md", requires: [] } as const;
    // a plain file needs no resolving; anything else is checked as a read would check it
    const found = lstatSync(join(root, component.path), { throwIfNoEntry: false })?.isFile()
      ? undefined
      : checkContained({
          dir: root,
          dirReal: realpathOrUndefined(root) ?? root,
          relative: component.path,
          want: "file",
          key: `component skill:${skill.name}`,
          manifestPath,
        });
    if (found !== undefined) return failed(found);
    return {
      ok: true,
      value: {
        id: skill.name,
        version: skill.version,
        description: skill.description,
        license: skill.license,
        format: "skillshelf",
        kind: "skill",
        requires: [],
        resources: [{ kind: "skills", path: "." }],
        components: [component],
        manifestPath,
        manifestDigest: sha256(skillPackageManifestText(skill)),
      },
      diagnostics: [],
    };
  });
}

/**
 * Whether the folder `dir` has an entry where `readPackageManifest` reads a manifest (ours or a
 * Claude Code plugin's), whatever that entry is: without one, the folder is not a package.
 */
export function hasManifestEntry(dir: string): boolean {
  return MANIFEST_ENTRIES.some(
    (entry) => lstatSync(join(dir, entry), { throwIfNoEntry: false }) !== undefined,
  );
}

/**
 * The manifest `cache` kept for trees of `digest`, as read in `dir` (its path moved there), or
 * `undefined`. It only looks: a caller that has not digested `dir` itself must check the digest
 * before trusting the tree, as a writer does inside its lock.
 */
export function keptManifest(
  cache: ScopeCache,
  digest: string,
  dir: string,
): PackageManifest | undefined {
  const kept = cache.manifests.get(digest);
  if (kept === undefined) return undefined;
  const root = resolve(dir);
  if (root === kept.dir) return kept.manifest;
  const manifestPath = join(root, relative(kept.dir, kept.manifest.manifestPath));
  return { ...kept.manifest, manifestPath };
}

// --- internal ---

function keptOrRead(
  dir: string,
  known: { readonly digest: string; readonly cache: ScopeCache } | undefined,
  read: () => ManifestResult,
): ManifestResult {
  const kept = known === undefined ? undefined : keptManifest(known.cache, known.digest, dir);
  if (kept !== undefined) return { ok: true, value: kept, diagnostics: [] };
  const result = read();
  if (known !== undefined && result.ok && result.diagnostics.length === 0)
    known.cache.manifests.set(known.digest, { dir: resolve(dir), manifest: result.value });
  return result;
}

/** `read` in the package folder `dir` (resolved, and real), or `package_missing` if it is none. */
function inPackage(
  dir: string,
  read: (root: string, rootReal: string) => ManifestResult,
): ManifestResult {
  const root = resolve(dir);
  const rootReal = realpathOrUndefined(root);
  if (rootReal === undefined || !lstatSync(rootReal).isDirectory()) return notAPackage(root);
  return read(root, rootReal);
}

function notAPackage(root: string): { ok: false; diagnostics: Diagnostic[] } {
  return failed(
    createDiagnostic("error", "package_missing", `${root} is not a package folder`, {
      path: root,
    }),
  );
}

function readManifestAt(root: string, rootReal: string): ManifestResult {
  const [ours, claudePlugin] = MANIFEST_ENTRIES;
  if (lstatSync(join(root, ours), { throwIfNoEntry: false }) !== undefined)
    return readOwnManifest(root, rootReal);
  const claude = join(root, claudePlugin);
  if (lstatSync(claude, { throwIfNoEntry: false }) !== undefined) {
    const document = readManifestDocument(root, rootReal, claudePlugin);
    if (!document.ok) return document;
    return readClaudePlugin({
      root,
      rootReal,
      manifestPath: claude,
      value: document.value.json,
      hash: document.value.hash,
    });
  }
  return failed(
    createDiagnostic(
      "error",
      "manifest_missing",
      `${root} has no plugin.json (nor .claude-plugin/plugin.json)`,
      { path: root },
    ),
  );
}

function readOwnManifest(root: string, rootReal: string): ManifestResult {
  const document = readManifestDocument(root, rootReal, "plugin.json");
  if (!document.ok) return document;
  return ownManifest(root, rootReal, document.value.json, document.value.hash);
}

/** Our manifest `value`, read from the package's `plugin.json` whose bytes hash to `hash`. */
function ownManifest(root: string, rootReal: string, value: unknown, hash: string): ManifestResult {
  const manifestPath = join(root, "plugin.json");
  const version = declaredManifestVersion(value);
  if (typeof version === "number" && Number.isInteger(version) && version > 1)
    return failed(
      createDiagnostic(
        "error",
        "manifest_unsupported",
        `${manifestPath} declares manifestVersion ${version}; this build reads version 1`,
        { path: manifestPath, details: { manifestVersion: version } },
      ),
    );
  const parsed = parseManifestValue(value);
  if (!parsed.success)
    return {
      ok: false,
      diagnostics: schemaDiagnostics(parsed.error.issues, value, manifestPath, "package manifest"),
    };
  const data = parsed.data;
  const declarations = checkDeclarations(data.extensions?.[EXTENSION_KEY], {
    manifestPath,
    hasSkillsFolder: () => realpathOrUndefined(join(root, "skills")) !== undefined,
  });
  const diagnostics: Diagnostic[] = [...declarations.diagnostics];
  for (const folder of declarations.resources) {
    const found = checkContained({
      dir: root,
      dirReal: rootReal,
      relative: folder.path,
      want: "folder",
      key: `resources.${folder.kind}`,
      manifestPath,
    });
    if (found !== undefined) diagnostics.push(found);
  }
  for (const component of declarations.components) {
    const found = checkContained({
      dir: root,
      dirReal: rootReal,
      relative: component.path,
      want: "file",
      key: `component ${component.kind}:${component.id}`,
      manifestPath,
    });
    if (found !== undefined) diagnostics.push(found);
  }
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  const manifest: PackageManifest = {
    id: data.name,
    version: data.version,
    description: data.description,
    license: data.license,
    format: "skillshelf",
    kind: declarations.kind,
    requires: declarations.requires,
    resources: declarations.resources,
    components: declarations.components,
    manifestPath,
    manifestDigest: hash,
  };
  return { ok: true, value: manifest, diagnostics };
}

/**
 * The manifest at `relativePath` in a package, read as JSON: refused when it is a broken link or
 * leads outside the package (at any step, as the kernel resolves it), is too large, not a regular
 * file, not UTF-8 or not JSON.
 */
function readManifestDocument(
  root: string,
  rootReal: string,
  relativePath: string,
): ReadResult<{ readonly json: unknown; readonly hash: string }> {
  const manifestPath = join(root, relativePath);
  const resolved = resolveContained(`${rootReal}/${relativePath}`, rootReal, { relocatable: true });
  if (resolved.status !== "inside")
    return failed(
      createDiagnostic(
        "error",
        "path_escape",
        `${manifestPath} ${resolved.status === "missing" ? "is a broken symlink" : `resolves to ${resolved.real}, outside the package`}`,
        { path: manifestPath },
      ),
    );
  const document = readTextDocument({
    path: manifestPath,
    realPath: resolved.real,
    maxBytes: MAX_MANIFEST_BYTES,
    what: "package manifest",
  });
  if (!document.ok) return document;
  const parsed = manifestJson(document.value.text, manifestPath);
  return parsed.ok
    ? { ok: true, value: { json: parsed.value, hash: document.value.hash }, diagnostics: [] }
    : parsed;
}

/** A manifest's text parsed as JSON, or `manifest_json` on its path. */
function manifestJson(text: string, manifestPath: string): ReadResult<unknown> {
  const parsed = parseJsonDocument(text);
  if (parsed.ok) return { ok: true, value: parsed.value, diagnostics: [] };
  return failed(
    createDiagnostic(
      "error",
      parsed.code ?? "manifest_json",
      `package manifest is not valid JSON (${parsed.message})`,
      { path: manifestPath },
    ),
  );
}

function failed(diagnostic: Diagnostic): { ok: false; diagnostics: Diagnostic[] } {
  return { ok: false, diagnostics: [diagnostic] };
}

/** `extensions.skillshelf.manifestVersion` as written, whatever its type. */
function declaredManifestVersion(value: unknown): unknown {
  const extensions = (value as { extensions?: unknown } | null)?.extensions;
  const ours = (extensions as Record<string, unknown> | null | undefined)?.[EXTENSION_KEY];
  return (ours as { manifestVersion?: unknown } | null | undefined)?.manifestVersion;
}
