import { basename, dirname, join, resolve } from "node:path";
import { canonicalJson, isPackageId, isSemver, normalizeRelativePath } from "@skillshelf/core";
import { type RowReporter, reportRow, stringList } from "./_rows.js";
import { gitSource } from "./fetchers/_git-syntax.js";
import { invalidSource, type ParsedSource } from "./fetchers/_syntax.js";
import { parseSourceUrl } from "./source-url.js";
import type { IndexOrigin, IndexRow, ProvidedResource } from "./types.js";

/**
 * The rows of a Claude `marketplace.json` (`{plugins: [...]}`): each plugin becomes a `plugin` row
 * of format `claude-code`, with no pinned digest. Sources may be a path string (relative to the
 * marketplace's repository root, after `metadata.pluginRoot`), or an object: `github` (`repo`,
 * `ref`, `sha`, `path`), `url` and `git-subdir` (a git `url`, `ref`, `sha`, `path`), `local`
 * (`path`). A pinned `sha` wins over `ref`. Rows with a bad name or an unsupported source are
 * dropped with a finding; a non-SemVer version is a warning and left out.
 */
export function marketplaceRows(
  document: unknown,
  reporter: RowReporter,
  origin: IndexOrigin,
): IndexRow[] | undefined {
  if (
    typeof document !== "object" ||
    document === null ||
    !Array.isArray((document as { plugins?: unknown }).plugins)
  )
    return undefined;
  const { plugins, metadata } = document as {
    plugins: unknown[];
    metadata?: { pluginRoot?: unknown };
  };
  const root = marketplaceRoot(reporter.index);
  const pluginRoot =
    typeof metadata?.pluginRoot === "string"
      ? (normalizeRelativePath(metadata.pluginRoot) ?? ".")
      : ".";
  const rows: IndexRow[] = [];
  plugins.forEach((entry, position) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      reportRow(
        reporter,
        "error",
        "index_row_invalid",
        position,
        undefined,
        "is not an object; it is skipped",
      );
      return;
    }
    const plugin = entry as Record<string, unknown>;
    if (typeof plugin.name !== "string" || !isPackageId(plugin.name)) {
      reportRow(
        reporter,
        "error",
        "index_row_invalid",
        position,
        plugin.name,
        "needs a name that is a package id; the row is skipped",
      );
      return;
    }
    const source = marketplaceSource(plugin.source, join(root, pluginRoot), root);
    if (!source.ok) {
      reportRow(
        reporter,
        "error",
        source.code === "source_invalid" ? "source_unsupported" : source.code,
        position,
        plugin.name,
        `${source.problem}; the row is skipped`,
      );
      return;
    }
    let version = typeof plugin.version === "string" ? plugin.version : undefined;
    if (version !== undefined && !isSemver(version)) {
      reportRow(
        reporter,
        "warning",
        "version_invalid",
        position,
        plugin.name,
        `version ${version} is not SemVer; it is left out`,
      );
      version = undefined;
    }
    const triggers = stringList([
      ...(stringList(plugin.keywords) ?? []),
      ...(stringList(plugin.tags) ?? []),
    ]);
    const provides = providedSkills(plugin.skills);
    rows.push({
      kind: "plugin",
      name: plugin.name,
      description: typeof plugin.description === "string" ? plugin.description.trim() : "",
      version,
      sha256: undefined,
      sourceUrl:
        typeof plugin.source === "string" ? plugin.source : canonicalJson(plugin.source ?? null),
      source: source.source,
      requires: [],
      ...(typeof plugin.category === "string" ? { category: plugin.category } : {}),
      ...(triggers === undefined ? {} : { triggers: [...new Set(triggers)] }),
      ...(provides.length === 0 ? {} : { provides }),
      format: "claude-code",
      index: reporter.index,
      catalog: reporter.catalog,
      origin,
    });
  });
  return rows;
}

// --- internal ---

/** The repository root a marketplace's relative sources start from. */
function marketplaceRoot(index: string): string {
  const folder = dirname(index);
  if (basename(folder) === ".claude-plugin") return dirname(folder);
  if (/\/\.(github|agents)\/plugins?$/.test(folder)) return dirname(dirname(folder));
  return folder;
}

function marketplaceSource(value: unknown, base: string, root: string): ParsedSource {
  if (typeof value === "string") return local(value, base);
  if (typeof value !== "object" || value === null) return invalidSource("it has no source");
  const fields = value as Record<string, unknown>;
  const text = (key: string) =>
    typeof fields[key] === "string" && fields[key] !== "" ? (fields[key] as string) : undefined;
  const ref = text("sha") ?? text("ref");
  const path = text("path");
  switch (fields.source) {
    case "local":
      return path === undefined ? invalidSource("a local source needs a path") : local(path, root);
    case "github": {
      const repo = text("repo");
      if (repo === undefined || !/^[\w.-]+\/[\w.-]+$/.test(repo))
        return invalidSource("a github source needs repo: owner/name");
      return gitSource(`https://github.com/${repo}.git`, { ref, path });
    }
    case "url":
    case "git-subdir": {
      const url = text("url");
      if (url === undefined) return invalidSource(`a ${fields.source} source needs a url`);
      if (url.startsWith(".")) return local(path === undefined ? url : join(url, path), root);
      return gitSource(/^[\w.-]+\/[\w.-]+$/.test(url) ? `https://github.com/${url}.git` : url, {
        ref,
        path,
      });
    }
    default:
      return invalidSource(
        `source ${JSON.stringify(fields.source)} is not one Skillshelf can fetch (local paths, github, url and git-subdir are)`,
      );
  }
}

function local(path: string, base: string): ParsedSource {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return parseSourceUrl(path, base);
  const inside = normalizeRelativePath(path);
  if (inside === undefined) return invalidSource(`${path} leaves the marketplace's repository`);
  return { ok: true, source: { type: "local", path: resolve(base, inside) } };
}

function providedSkills(value: unknown): ProvidedResource[] {
  return (stringList(value) ?? [])
    .map((path) => basename(path.replace(/\/+$/, "")))
    .filter((name) => /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(name))
    .map((name) => ({ kind: "skill", name }));
}
