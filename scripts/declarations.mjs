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
  emitCommonJsDeclarations(packageDir);
}

/**
 * Beside every `dist/**\/*.d.ts`, its `.d.cts`: the same declarations for a CommonJS consumer, whose
 * `require` condition loads the `.cjs` build. Relative imports name `.cjs` files, so TypeScript
 * reads each module as CommonJS (a `.d.ts` in a `"type": "module"` package is an ES module to it,
 * which `module: node16` refuses to `require`).
 */
export function emitCommonJsDeclarations(packageDir) {
  const dist = join(packageDir, "dist");
  for (const entry of readdirSync(dist, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, "utf8").replace(
      /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']*?)\.js\2/g,
      "$1$2$3.cjs$2",
    );
    writeFileSync(`${file.slice(0, -".d.ts".length)}.d.cts`, text);
  }
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
