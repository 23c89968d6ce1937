import { join } from "node:path";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  isPackageId,
  isSemver,
  normalizeRelativePath,
  type ResourceFolder,
  realpathOrUndefined,
} from "@skillshelf/core";
import { checkContained, invalidPath } from "./_paths.js";
import type { ManifestResult, PackageResourceFolder } from "./types.js";

/** Claude Code plugin keys naming extra resource folders (its layout, not ours), and the folder each defaults to. */
const FOLDER_KEYS: ReadonlyArray<
  readonly [key: string, kind: ResourceFolder, defaultFolder: string]
> = [
  ["skills", "skills", "skills"],
  ["commands", "prompts", "commands"],
  ["agents", "agents", "agents"],
];
const DESCRIPTIVE_KEYS = new Set([
  "$schema",
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
]);
/** Keys Claude Code acts on that Skillshelf keeps but never runs. */
const NOT_RUN_KEYS = new Set([
  "hooks",
  "mcpServers",
  "lspServers",
  "outputStyles",
  "userConfig",
  "channels",
  "settings",
]);

/**
 * A Claude Code plugin (`.claude-plugin/plugin.json`) as a package of format `claude-code`: the
 * `skills/`, `commands/` (prompts) and `agents/` folders, plus any extra folders its manifest
 * names, are its resources. Lenient where Claude Code is: a missing version is allowed, keys for
 * hooks or servers are kept with an `not_run` note, other unknown keys are warnings.
 */
export function readClaudePlugin(options: {
  readonly root: string;
  readonly rootReal: string;
  readonly manifestPath: string;
  readonly value: unknown;
  readonly hash: string;
}): ManifestResult {
  const { root, rootReal, manifestPath, value, hash } = options;
  const diagnostics: Diagnostic[] = [];
  const note = (
    severity: "error" | "warning" | "info",
    code: Code,
    message: string,
    details?: Record<string, unknown>,
  ) => diagnostics.push(createDiagnostic(severity, code, message, { path: manifestPath, details }));
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    note("error", "field_invalid", "Claude Code plugin manifest must be a JSON object");
    return { ok: false, diagnostics };
  }
  const data = value as Record<string, unknown>;
  const name = data.name;
  if (typeof name !== "string" || !isPackageId(name))
    note(
      "error",
      name === undefined ? "key_missing" : "field_invalid",
      `plugin name ${JSON.stringify(name)} is not a package id (lowercase letters, digits, '.', '-')`,
      { key: "name" },
    );
  let version = typeof data.version === "string" ? data.version : undefined;
  if (version !== undefined && !isSemver(version)) {
    note(
      "warning",
      "version_invalid",
      `version ${JSON.stringify(version)} is not SemVer; the package is read without a version`,
      { key: "version" },
    );
    version = undefined;
  }
  for (const key of Object.keys(data)) {
    if (NOT_RUN_KEYS.has(key))
      note("info", "not_run", `"${key}" is kept but Skillshelf does not run it`, { key });
    else if (!DESCRIPTIVE_KEYS.has(key) && !FOLDER_KEYS.some(([folderKey]) => folderKey === key))
      note(
        "warning",
        "key_ignored",
        `"${key}" is not a Claude Code plugin key Skillshelf knows; it is ignored`,
        { key },
      );
  }
  const resources = resourceFolders(data, { root, rootReal, manifestPath, diagnostics });
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  return {
    ok: true,
    value: {
      id: name as string,
      version,
      description: typeof data.description === "string" ? data.description : undefined,
      license: typeof data.license === "string" ? data.license : undefined,
      format: "claude-code",
      kind: "plugin",
      requires: [],
      resources,
      components: [],
      manifestPath,
      manifestDigest: hash,
    },
    diagnostics,
  };
}

// --- internal ---

function resourceFolders(
  data: Readonly<Record<string, unknown>>,
  context: { root: string; rootReal: string; manifestPath: string; diagnostics: Diagnostic[] },
): PackageResourceFolder[] {
  const { root, rootReal, manifestPath, diagnostics } = context;
  const folders: PackageResourceFolder[] = [];
  for (const [key, kind, defaultFolder] of FOLDER_KEYS) {
    if (realpathOrUndefined(join(root, defaultFolder)) !== undefined)
      folders.push({ kind, path: defaultFolder });
    const declared = data[key];
    const values =
      typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared : [];
    if (declared !== undefined && values.length === 0)
      diagnostics.push(
        createDiagnostic("error", "field_invalid", `"${key}" must be a path or a list of paths`, {
          path: manifestPath,
          details: { key },
        }),
      );
    for (const item of values) {
      const path = typeof item === "string" ? normalizeRelativePath(item) : undefined;
      if (path === undefined || path === ".") {
        diagnostics.push(invalidPath(manifestPath, key, String(item)));
        continue;
      }
      if (folders.some((folder) => folder.kind === kind && folder.path === path)) continue;
      const problem = checkContained({
        dir: root,
        dirReal: rootReal,
        relative: path,
        want: "folder",
        key,
        manifestPath,
      });
      if (problem === undefined) folders.push({ kind, path });
      else if (problem.code === "path_kind")
        diagnostics.push(
          createDiagnostic(
            "warning",
            "path_kind",
            `"${key}" names the file ${path}; only folders of ${kind} are read, so it is skipped`,
            { path: manifestPath, details: { key, value: path } },
          ),
        );
      else diagnostics.push(problem);
    }
  }
  return folders;
}
