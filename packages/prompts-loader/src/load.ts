import { resolveResourceCollisions } from "@skillshelf/collision";
import {
  assertLoaderOptions,
  type Diagnostic,
  findMarkdownFiles,
  resolveEnvironment,
  resourcePlace,
  sortDiagnostics,
  withDefaultContainment,
} from "@skillshelf/core";
import { nameDiagnostic, readPromptFile } from "./_read.js";
import { defaultPromptRoots } from "./roots.js";
import type {
  LoadPromptsCode,
  LoadPromptTemplatesInput,
  LoadPromptTemplatesResult,
  PromptTemplate,
} from "./types.js";

/**
 * Load every prompt template visible from `cwd`: every `*.md` under each root (recursively),
 * named by its root-relative path with `:` between folders. Frontmatter is optional; a broken
 * one, an unreadable file or a symlink out of its root never stops the rest. Name clashes resolve
 * as for skills: trusted, then owned, then precedence, then agent rank, then path.
 * @example
 * const { items } = loadPromptTemplates({ cwd: "/work/app" });
 * const result = expandPromptTemplate("/review src/app.ts", items);
 */
export function loadPromptTemplates(
  input: LoadPromptTemplatesInput = {},
): LoadPromptTemplatesResult {
  assertLoaderOptions(input);
  const environment = resolveEnvironment(input);
  const roots =
    input.roots === undefined
      ? defaultPromptRoots(environment)
      : withDefaultContainment(input.roots, environment);
  const diagnostics: Diagnostic[] = [];
  const candidates: PromptTemplate[] = [];
  for (const root of roots) {
    const walk = findMarkdownFiles(root, { recursive: true });
    diagnostics.push(...walk.diagnostics);
    for (const file of walk.files) {
      const name = file.relativePath.replace(/\.md$/i, "").replaceAll("/", ":");
      const { record, diagnostics: fileDiagnostics } = readPromptFile(file);
      diagnostics.push(...fileDiagnostics);
      const invalidName = nameDiagnostic(name, file.path);
      if (invalidName !== undefined) diagnostics.push(invalidName);
      candidates.push({
        name,
        ...resourcePlace(root, file, input.trustImports === true),
        ...record,
      });
    }
  }
  const resolved = resolveResourceCollisions(candidates);
  diagnostics.push(...resolved.diagnostics);
  return {
    items: resolved.winners,
    // each piece reports its own codes, core's or the resolver's (the catalogue's owners)
    diagnostics: sortDiagnostics(diagnostics) as Diagnostic<LoadPromptsCode>[],
    collisions: resolved.groups,
  };
}
