#!/usr/bin/env node
// The layering check (DESIGN §1): a package may depend only on packages in strictly lower layers,
// whether the edge is declared in a package.json or made by an import in code. The layer map is
// read from layers.json; this script is the only thing that interprets it.
//
// Usage: node tools/check-layers.mjs [--root DIR]   (exit 0 clean, 1 violations, 2 bad setup)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SCOPE = "@skillshelf/";
const DEPENDENCY_FIELDS = [
  "dependencies",
  "peerDependencies",
  "optionalDependencies",
  "devDependencies",
];
const CODE_FILE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", ".turbo", "corpus", "fixtures"]);

const rootArg = process.argv.indexOf("--root");
const root = resolve(
  rootArg === -1
    ? join(dirname(fileURLToPath(import.meta.url)), "..")
    : (process.argv[rootArg + 1] ?? "."),
);
const result = checkLayers(root);
for (const violation of result.violations) console.log(`layering: ${violation}`);
if (result.violations.length > 0) {
  console.log(
    `layering: ${result.violations.length} violation(s); see layers.json and ARCHITECTURE.md`,
  );
  process.exit(1);
}
console.log(
  `layering: ${result.packages} packages, ${result.edges} dependency edges checked, no violations`,
);

/** @param {string} rootDir */
function checkLayers(rootDir) {
  const map = readLayerMap(rootDir);
  const packages = readPackages(rootDir);
  /** @type {string[]} */
  const violations = [];
  let edges = 0;
  for (const pkg of packages.values()) {
    if (`${SCOPE}${pkg.folder}` !== pkg.name)
      violations.push(
        `${pkg.dir}: package ${pkg.name} must live in packages/${pkg.name.slice(SCOPE.length)}`,
      );
    if (!(pkg.folder in map.layers) && !(pkg.folder in map.private)) {
      violations.push(`${pkg.name} has no layer in layers.json`);
      continue;
    }
    for (const field of DEPENDENCY_FIELDS) {
      for (const name of Object.keys(pkg.json[field] ?? {})) {
        if (!name.startsWith(SCOPE)) continue;
        edges += 1;
        const problem = edgeProblem(
          map,
          pkg.folder,
          name.slice(SCOPE.length),
          field === "devDependencies",
        );
        if (problem !== undefined)
          violations.push(`${pkg.dir}/package.json ${field} ${name}: ${problem}`);
      }
    }
    for (const file of codeFiles(join(rootDir, pkg.dir))) {
      const isTestCode =
        !file.startsWith(join(rootDir, pkg.dir, "src") + sep) || pkg.folder in map.private;
      if (!isTestCode)
        for (const name of namedImportsOf(file)) {
          const callers = map.onlyImportedBy[name];
          if (callers !== undefined && !callers.includes(pkg.folder))
            violations.push(
              `${relative(rootDir, file)} imports ${name}: only ${callers.join(", ")} may; read through @skillshelf/resources' beginPass`,
            );
        }
      for (const specifier of importsOf(file)) {
        const where = relative(rootDir, file);
        if (specifier.startsWith(".")) {
          // shared root config (tsup.config.base.ts) is fine; another package's files are not
          const target = resolve(dirname(file), specifier);
          const intoPackages = target.startsWith(join(rootDir, "packages") + sep);
          if (intoPackages && !target.startsWith(join(rootDir, pkg.dir) + sep)) {
            violations.push(
              `${where} imports ${specifier}: reaches into another package; import it by name`,
            );
          }
          continue;
        }
        if (!specifier.startsWith(SCOPE)) continue;
        edges += 1;
        const [targetFolder = "", ...subpath] = specifier.slice(SCOPE.length).split("/");
        if (targetFolder === pkg.folder) continue;
        const declared = isTestCode
          ? DEPENDENCY_FIELDS.some((field) => pkg.json[field]?.[`${SCOPE}${targetFolder}`])
          : pkg.json.dependencies?.[`${SCOPE}${targetFolder}`];
        if (!declared) {
          violations.push(
            `${where} imports ${specifier}, which ${pkg.name} does not declare in ${isTestCode ? "its dependencies" : "dependencies"}`,
          );
          continue;
        }
        const problem = edgeProblem(map, pkg.folder, targetFolder, isTestCode);
        if (problem !== undefined) violations.push(`${where} imports ${specifier}: ${problem}`);
        const target = packages.get(targetFolder);
        if (
          subpath.length > 0 &&
          target !== undefined &&
          !(`./${subpath.join("/")}` in (target.json.exports ?? {}))
        ) {
          violations.push(
            `${where} imports ${specifier}: not an export of ${target.name}; use its public entry`,
          );
        }
      }
    }
  }
  return { violations, packages: packages.size, edges };
}

/**
 * Why `from` may not depend on `to`, or undefined when it may. `dev` marks a devDependency or an
 * import from test code, the only places the private test-utils package may be used.
 * @param {{ layers: Record<string, number>, private: Record<string, { dependencies: string[] | "any" }>, restrictions: Record<string, string[]> }} map
 * @param {string} from @param {string} to @param {boolean} dev
 */
function edgeProblem(map, from, to, dev) {
  if (from === to) return undefined;
  if (!(to in map.layers) && !(to in map.private)) return `${to} has no layer in layers.json`;
  if (to in map.private) {
    if (to !== "test-utils") return `${to} is private; nothing may depend on it`;
    return dev ? undefined : "test-utils may only be a devDependency, used from test code";
  }
  if (from in map.private) {
    const allowed = map.private[from]?.dependencies;
    return allowed === "any" || allowed?.includes(to)
      ? undefined
      : `${from} may not depend on ${to}`;
  }
  const allowed = map.restrictions[from];
  if (allowed !== undefined && !allowed.includes(to))
    return `${from} may depend only on ${allowed.join(", ")}`;
  const fromLayer = map.layers[from] ?? 0;
  const toLayer = map.layers[to] ?? 0;
  if (toLayer < fromLayer) return undefined;
  return `${from} (L${fromLayer}) → ${to} (L${toLayer}) points ${toLayer === fromLayer ? "sideways" : "up"}`;
}

/** @param {string} rootDir */
function readLayerMap(rootDir) {
  const path = join(rootDir, "layers.json");
  if (!existsSync(path)) fail(`${path} is missing`);
  const map = JSON.parse(readFileSync(path, "utf8"));
  if (typeof map.layers !== "object") fail(`${path} has no "layers" object`);
  return {
    layers: map.layers,
    private: map.private ?? {},
    restrictions: map.restrictions ?? {},
    onlyImportedBy: map.onlyImportedBy ?? {},
  };
}

/** @param {string} rootDir */
function readPackages(rootDir) {
  /** @type {Map<string, { folder: string, dir: string, name: string, json: Record<string, any> }>} */
  const packages = new Map();
  const base = join(rootDir, "packages");
  for (const folder of readdirSync(base).sort()) {
    const manifest = join(base, folder, "package.json");
    if (!existsSync(manifest)) continue;
    const json = JSON.parse(readFileSync(manifest, "utf8"));
    packages.set(folder, { folder, dir: `packages/${folder}`, name: json.name, json });
  }
  return packages;
}

/** @param {string} dir @returns {string[]} */
function codeFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED_FOLDERS.has(name) ? [] : codeFiles(path);
    return CODE_FILE.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every module specifier a file imports, re-exports, dynamically imports or requires. @param {string} file */
function importsOf(file) {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles.map((entry) => entry.fileName);
}

/**
 * The names a file imports or re-exports from workspace packages (`import { a as b }` gives `a`).
 * @param {string} file
 */
function namedImportsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  /** @type {string[]} */
  const names = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const from = statement.moduleSpecifier;
    if (from === undefined || !ts.isStringLiteral(from) || !from.text.startsWith(SCOPE)) continue;
    const bindings = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings
      : statement.exportClause;
    if (bindings !== undefined && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)))
      for (const element of bindings.elements)
        names.push((element.propertyName ?? element.name).text);
  }
  return names;
}

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`layering: ${message}`);
  process.exit(2);
}
