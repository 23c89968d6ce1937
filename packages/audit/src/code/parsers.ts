import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type {
  Tree,
  Language as TreeLanguage,
  Parser as TreeParser,
} from "@vscode/tree-sitter-wasm";

/** The languages whose code the audit reads as syntax trees. */
export const CODE_LANGUAGES = ["bash", "python", "javascript", "powershell"] as const;

/** A language the audit parses. */
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/**
 * The parsers of one audit run: `load` compiles the runtime and the grammars asked for (once
 * each; nothing is loaded before code is met), `parse` gives a syntax tree of a loaded language,
 * or `undefined` for one not loaded or text the grammar cannot read at all. Trees are freed by
 * the caller (`tree.delete()`). Each object holds its own parsers: nothing is shared between two.
 */
export interface CodeParsers {
  load(languages: Iterable<CodeLanguage>): Promise<void>;
  parse(language: CodeLanguage, text: string): Tree | undefined;
}

/** A new set of parsers, loading nothing until asked. */
export function createCodeParsers(): CodeParsers {
  let runtime: Promise<typeof import("@vscode/tree-sitter-wasm")> | undefined;
  const loading = new Map<CodeLanguage, Promise<void>>();
  const ready = new Map<CodeLanguage, TreeParser>();
  const loadOne = async (language: CodeLanguage) => {
    runtime ??= startRuntime();
    const { Language, Parser } = await runtime;
    const grammar: TreeLanguage = await Language.load(
      readFileSync(wasmFile(`tree-sitter-${language}.wasm`)),
    );
    const parser = new Parser();
    parser.setLanguage(grammar);
    ready.set(language, parser);
  };
  return {
    async load(languages) {
      await Promise.all(
        [...new Set(languages)].map((language) => {
          let pending = loading.get(language);
          if (pending === undefined) {
            pending = loadOne(language);
            loading.set(language, pending);
          }
          return pending;
        }),
      );
    },
    parse(language, text) {
      const parser = ready.get(language);
      if (parser === undefined) return undefined;
      // a parse that runs past its budget gives no tree: the fragment is read by the line rules
      const deadline = performance.now() + PARSE_BUDGET_MS;
      return (
        parser.parse(text, null, { progressCallback: () => performance.now() > deadline }) ??
        undefined
      );
    },
  };
}

// --- internal ---

/** Longest one fragment may take to parse. */
const PARSE_BUDGET_MS = 2_000;

async function startRuntime(): Promise<typeof import("@vscode/tree-sitter-wasm")> {
  const loaded = (await import("@vscode/tree-sitter-wasm")) as unknown as {
    default?: typeof import("@vscode/tree-sitter-wasm");
  } & typeof import("@vscode/tree-sitter-wasm");
  const module = loaded.default ?? loaded;
  await module.Parser.init({ locateFile: (file) => wasmFile(file) });
  return module;
}

/** The path of one of the package's `.wasm` files. */
function wasmFile(name: string): string {
  const specifier = `@vscode/tree-sitter-wasm/wasm/${name}`;
  // the package's own ES module resolves through import.meta; the command's CommonJS bundle has
  // an empty import.meta, and resolves through require
  return typeof import.meta.resolve === "function"
    ? fileURLToPath(import.meta.resolve(specifier))
    : require.resolve(specifier);
}
