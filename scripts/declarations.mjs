// A package's declarations, one `.d.ts` per source file, written by oxc's isolated-declarations
// transform: every package but store declares `isolatedDeclarations`, so each file's types are
// read off that file alone, with no type checker (`pnpm typecheck` checks them). Called by the
// shared tsup config after the JavaScript is built (docs/decisions.md, "Repository and tooling").
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { isolatedDeclarationSync } from "oxc-transform";

/**
 * Write `dist/**\/*.d.ts` for every `src/**\/*.ts` of the package at `packageDir`; throws, naming
 * each file and line, when a source states a type that only a checker could infer.
 */
export function emitDeclarations(packageDir) {
  const src = join(packageDir, "src");
  const failures = [];
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, "utf8");
    const { code, errors } = isolatedDeclarationSync(file, text, { stripInternal: true });
    if (errors.length > 0) {
      for (const error of errors) failures.push(`${relative(packageDir, file)}: ${error.message}`);
      continue;
    }
    const out = join(packageDir, "dist", `${relative(src, file).slice(0, -".ts".length)}.d.ts`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, code);
  }
  if (failures.length > 0) throw new Error(`declarations:\n${failures.join("\n")}`);
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
