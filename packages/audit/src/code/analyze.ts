import type { Tree } from "@vscode/tree-sitter-wasm";
import { judgeCalls } from "./calls.js";
import type { CodeFragment } from "./fragments.js";
import { type CodeJudgment, MAX_NESTING_DEPTH, nestingDepth } from "./judgment.js";
import type { CodeLanguage, CodeParsers } from "./parsers.js";
import { judgeShell } from "./shell.js";

/** A judgment with the fragment's line it is on, for the finding's excerpt. */
interface PlacedJudgment extends CodeJudgment {
  readonly excerpt: string;
}

/** What reading one fragment as a syntax tree gave. */
export type FragmentAnalysis =
  | {
      /** What the analysis found, 0-based rows in the fragment. */
      readonly judgments: readonly PlacedJudgment[];
      /** The tree had no error: the analysis read all of it. */
      readonly clean: boolean;
      /** Languages of code inside it that are not loaded yet (load them and analyze again). */
      readonly missing: readonly CodeLanguage[];
    }
  | {
      readonly judgments: undefined;
      readonly reason: string;
      readonly missing: readonly CodeLanguage[];
    };

/** Largest fragment read as a syntax tree; a larger one is read line by line. */
const MAX_FRAGMENT_CHARS = 1024 * 1024;

/**
 * Read one fragment as a syntax tree with the loaded parsers and judge it (shell, or calls for
 * Python, JavaScript and PowerShell), code nested inside it (`python -c …`, `os.system("…")`)
 * judged in its own language at the place that holds it. `judgments: undefined` (with why) when
 * it could not be read that way: too large, nesting too deep, or its grammar found nothing.
 */
export function analyzeFragment(parsers: CodeParsers, fragment: CodeFragment): FragmentAnalysis {
  const missing = new Set<CodeLanguage>();
  if (fragment.text.length > MAX_FRAGMENT_CHARS)
    return { judgments: undefined, reason: "is too large to parse", missing: [] };
  if (nestingDepth(fragment.text) > MAX_NESTING_DEPTH)
    return { judgments: undefined, reason: "nests too deeply to analyse", missing: [] };
  const tree = parsers.parse(fragment.language, fragment.text);
  if (tree === undefined) return { judgments: undefined, reason: "did not parse", missing: [] };
  const rows = fragment.text.split("\n");
  try {
    const judgments = judge(parsers, fragment.language, tree, missing, 0).map((judgment) => ({
      ...judgment,
      excerpt: rows[judgment.row] ?? "",
    }));
    return { judgments, clean: !tree.rootNode.hasError, missing: [...missing] };
  } finally {
    tree.delete();
  }
}

// --- internal ---

/** How deep code inside code is followed (`bash -c "python -c '…'"`). */
const MAX_NESTING = 4;

function judge(
  parsers: CodeParsers,
  language: CodeLanguage,
  tree: Tree,
  missing: Set<CodeLanguage>,
  depth: number,
): CodeJudgment[] {
  const inner = (innerLanguage: CodeLanguage, text: string, row: number, column: number) => {
    if (depth >= MAX_NESTING) return [];
    const innerTree = parsers.parse(innerLanguage, text);
    if (innerTree === undefined) {
      missing.add(innerLanguage);
      return [];
    }
    try {
      // what is found inside is found where the code holding it is
      return judge(parsers, innerLanguage, innerTree, missing, depth + 1).map((judgment) => ({
        ...judgment,
        row,
        column,
        flow: `${innerLanguage}: ${judgment.flow}`,
      }));
    } finally {
      innerTree.delete();
    }
  };
  if (language === "bash")
    return judgeShell(tree, (code) =>
      inner(code.language, code.text, code.node.startPosition.row, code.node.startPosition.column),
    );
  return judgeCalls(language, tree, (code) =>
    inner("bash", code.text, code.node.startPosition.row, code.node.startPosition.column),
  );
}
