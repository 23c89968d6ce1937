// What a listing needs of core, and nothing that reads YAML: `@skillshelf/catalog-view` imports
// this entry, so a bundle of a listing-only import does not carry the `yaml` package (which is
// not marked side-effect free, so a bundler keeps it whenever its importer is reached).
export { createDiagnostic } from "./diagnostics.js";
export type { LexicalQuery, MatchMode } from "./lexical.js";
export { isSearchable, matchLexical, parseLexicalQuery } from "./lexical.js";
export type { Diagnostic } from "./types.js";
