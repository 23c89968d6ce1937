import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import { compareBy } from "./resolve.js";
import type { CollisionCandidate, CollisionRule } from "./types.js";

/**
 * Keep one candidate per real file. When two roots reach the same file (through a symlink or an
 * overlapping root), the rules pick the entry in use and every other one yields a `duplicate_file`
 * info diagnostic naming both paths.
 */
export function dedupeByRealPath<T extends CollisionCandidate>(
  items: readonly T[],
  realPathOf: (item: T) => string,
  rules: readonly CollisionRule<T>[],
): { kept: T[]; diagnostics: Diagnostic[] } {
  const best = new Map<string, T>();
  for (const item of items) {
    const real = realPathOf(item);
    const current = best.get(real);
    if (current === undefined || compareBy(rules, item, current).order > 0) best.set(real, item);
  }
  const kept: T[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const item of items) {
    const winner = best.get(realPathOf(item)) as T;
    if (winner === item) {
      kept.push(item);
      continue;
    }
    diagnostics.push(
      createDiagnostic(
        "info",
        "duplicate_file",
        `${item.name} at ${item.path} is the same file as ${winner.path}, which is the entry in use`,
        {
          path: item.path,
          details: {
            name: item.name,
            winnerPath: winner.path,
            loserPath: item.path,
            winnerScope: winner.scope,
            loserScope: item.scope,
          },
        },
      ),
    );
  }
  return { kept, diagnostics };
}
