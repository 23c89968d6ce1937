import { lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  isInside,
  readTextDocument,
  realpathOrUndefined,
  schemaDiagnostics,
} from "@skillshelf/core";
import { readClaudePlugin } from "./_claude-plugin.js";
import { checkDeclarations } from "./_declarations.js";
import { EXTENSION_KEY, manifestSchema } from "./_manifest-schema.js";
import { checkContained } from "./_paths.js";
import type { ManifestResult, PackageManifest } from "./types.js";

/** Largest manifest read. */
export const MAX_MANIFEST_BYTES: number = 1024 * 1024;

/**
 * Read the manifest of the package folder `dir`: our `plugin.json` (format `skillshelf`), else a
 * Claude Code plugin's `.claude-plugin/plugin.json` (format `claude-code`). Every finding is a
 * diagnostic with a stable code on the manifest's path; `manifest` is set only when there is no
 * error. Declared folders and component files must exist inside the package, also after
 * resolving symlinks. Never throws for bad content.
 */
export function readPackageManifest(dir: string): ManifestResult {
  const root = resolve(dir);
  const rootReal = realpathOrUndefined(root);
  if (rootReal === undefined || !lstatSync(rootReal).isDirectory())
    return failed(
      createDiagnostic("error", "package_missing", `${root} is not a package folder`, root, {
        hint: "name a folder holding plugin.json",
      }),
    );
  const ours = join(root, "plugin.json");
  if (lstatSync(ours, { throwIfNoEntry: false }) !== undefined)
    return readOwnManifest(root, rootReal, ours);
  const claude = join(root, ".claude-plugin", "plugin.json");
  if (lstatSync(claude, { throwIfNoEntry: false }) !== undefined) {
    const document = readManifestDocument(claude, rootReal);
    if (!document.ok) return failed(document.diagnostic);
    return readClaudePlugin({ root, rootReal, manifestPath: claude, ...document });
  }
  return failed(
    createDiagnostic(
      "error",
      "manifest_missing",
      `${root} has no plugin.json (nor .claude-plugin/plugin.json); a package needs a manifest naming it and its version`,
      root,
    ),
  );
}

// --- internal ---

function readOwnManifest(root: string, rootReal: string, manifestPath: string): ManifestResult {
  const document = readManifestDocument(manifestPath, rootReal);
  if (!document.ok) return failed(document.diagnostic);
  const { value, hash } = document;
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success)
    return {
      manifest: undefined,
      diagnostics: schemaDiagnostics(parsed.error.issues, value, manifestPath, "package manifest"),
    };
  const data = parsed.data;
  const declarations = checkDeclarations(data.extensions?.[EXTENSION_KEY], {
    manifestPath,
    hasSkillsFolder: realpathOrUndefined(join(root, "skills")) !== undefined,
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
  if (hasErrors(diagnostics)) return { manifest: undefined, diagnostics };
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
  return { manifest, diagnostics };
}

/** A manifest file read as JSON: refused when it leaves the package, is too large, not UTF-8 or not JSON. */
export function readManifestDocument(
  manifestPath: string,
  rootReal: string,
): { ok: true; value: unknown; hash: string } | { ok: false; diagnostic: Diagnostic } {
  const real = realpathOrUndefined(manifestPath);
  const contained = checkContainedFile(manifestPath, rootReal, real);
  if (contained !== undefined) return { ok: false, diagnostic: contained };
  const document = readTextDocument({
    path: manifestPath,
    realPath: real as string,
    maxBytes: MAX_MANIFEST_BYTES,
    what: "package manifest",
  });
  if (!document.ok) return document;
  try {
    return { ok: true, value: JSON.parse(document.text), hash: document.hash };
  } catch (error) {
    return {
      ok: false,
      diagnostic: createDiagnostic(
        "error",
        "manifest_json",
        `package manifest is not valid JSON (${(error as Error).message}); fix the syntax`,
        manifestPath,
      ),
    };
  }
}

function checkContainedFile(
  path: string,
  rootReal: string,
  real: string | undefined,
): Diagnostic | undefined {
  if (real !== undefined && isInside(rootReal, real)) return undefined;
  return createDiagnostic(
    "error",
    "path_escape",
    `${path} ${real === undefined ? "is a broken symlink" : `resolves to ${real}, outside the package`}; the manifest must be a file inside the package`,
    path,
  );
}

function failed(diagnostic: Diagnostic): ManifestResult {
  return { manifest: undefined, diagnostics: [diagnostic] };
}
