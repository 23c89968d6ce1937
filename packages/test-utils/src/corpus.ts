import { cpSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { testdir } from "./testdir.js";

/** The real-world corpus bundled with the tests (read-only; see its README for origins and licences). */
export const CORPUS_DIR: string = join(dirname(fileURLToPath(import.meta.url)), "..", "corpus");

/** One file of the corpus as its MANIFEST.json describes it. */
export interface CorpusFile {
  readonly path: string;
  readonly kind: "skill" | "skill-reference" | "prompt" | "plugin" | "plugin-other";
  readonly repo: string;
  readonly license: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly odd: readonly string[];
}

/** Every file listed in the corpus manifest. */
export function corpusFiles(kind?: CorpusFile["kind"]): CorpusFile[] {
  const manifest = JSON.parse(readFileSync(join(CORPUS_DIR, "MANIFEST.json"), "utf8")) as {
    files: CorpusFile[];
  };
  return kind === undefined ? manifest.files : manifest.files.filter((file) => file.kind === kind);
}

/** The reference validator's verdict for one corpus `SKILL.md` (see `strict-verdicts.json`). */
export interface StrictVerdict {
  readonly valid: boolean;
  readonly categories: readonly string[];
  readonly messages: readonly string[];
  readonly strictyaml_parse_error: boolean;
}

/** Reference verdicts keyed by corpus-relative `SKILL.md` path. */
export function strictVerdicts(): Map<string, StrictVerdict> {
  const raw = JSON.parse(readFileSync(join(CORPUS_DIR, "strict-verdicts.json"), "utf8")) as Record<
    string,
    StrictVerdict
  >;
  return new Map(Object.entries(raw).filter(([key]) => !key.startsWith("_")));
}

/**
 * For files the reference refused only because it rejects YAML flow style: its verdict once flow
 * style is allowed, which shows what that parse error masked.
 */
export function flowStyleAllowedVerdicts(): Map<
  string,
  Pick<StrictVerdict, "valid" | "categories">
> {
  const raw = JSON.parse(readFileSync(join(CORPUS_DIR, "strict-verdicts.json"), "utf8")) as {
    _if_flow_style_allowed: Record<string, StrictVerdict>;
  };
  return new Map(Object.entries(raw._if_flow_style_allowed));
}

/** Copy a corpus folder (corpus-relative) into a fresh `testdir` and return the copy's path. */
export function copyCorpus(relative: string): string {
  const target = testdir();
  cpSync(join(CORPUS_DIR, relative), target, { recursive: true });
  return target;
}
