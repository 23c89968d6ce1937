import {
  createDiagnostic,
  type Diagnostic,
  type MarkdownFile,
  parseFrontmatter,
  readTextDocument,
  splitFrontmatter,
} from "@skillshelf/core";
import { readPromptFields } from "./fields.js";

/** A template file over this many bytes is unavailable. */
export const MAX_PROMPT_BYTES = 1_048_576;

/** What one template file says, before its root is applied. */
export interface PromptFileRecord {
  readonly content: string;
  readonly description: string;
  readonly argumentHint?: string;
  readonly displayOnly: boolean;
  readonly unavailable?: string;
  readonly hash?: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/**
 * Read one template. Frontmatter is optional; when it is broken the template still loads with a
 * warning, its body after the block, and whatever description and argument hint can be read from
 * the raw lines. A file that cannot be read as a text document loads as unavailable.
 */
export function readPromptFile(file: MarkdownFile): {
  record: PromptFileRecord;
  diagnostics: Diagnostic[];
} {
  const { path } = file;
  const document = readTextDocument({
    path,
    realPath: file.realPath,
    maxBytes: MAX_PROMPT_BYTES,
    what: "prompt template",
  });
  if (!document.ok) {
    const record = {
      content: "",
      description: "Prompt template",
      displayOnly: false,
      unavailable: document.diagnostics[0]?.message ?? "it cannot be read",
      frontmatter: {},
    };
    return { record, diagnostics: [...document.diagnostics] };
  }
  const { text, hash } = document.value;
  const parsed = parseFrontmatter(text, { path });
  let frontmatter: Readonly<Record<string, unknown>> = {};
  let body: string;
  const diagnostics: Diagnostic[] = [];
  if (parsed.ok) {
    frontmatter = parsed.data;
    body = parsed.body;
    diagnostics.push(...parsed.diagnostics);
  } else if (parsed.code === "frontmatter_missing") {
    body = parsed.body ?? text;
  } else {
    // frontmatter is optional for templates: a broken block is a warning, not a refusal
    diagnostics.push({ ...parsed.diagnostic, severity: "warning" });
    const split = splitFrontmatter(text);
    body = split.kind === "found" ? split.body : text;
  }
  const rawYaml = () => {
    const split = splitFrontmatter(text);
    return split.kind === "found" ? split.yaml : "";
  };
  const read = readPromptFields(frontmatter, rawYaml, body, path);
  diagnostics.push(...read.diagnostics);
  return {
    record: { content: body, ...read.fields, hash, frontmatter },
    diagnostics,
  };
}

/** A diagnostic for a name a user could not type after `/`. */
export function nameDiagnostic(name: string, path: string): Diagnostic | undefined {
  if (!/\s/.test(name)) return undefined;
  return createDiagnostic(
    "warning",
    "name_invalid",
    `template name "${name}" holds whitespace, so it cannot be typed as /${name}`,
    { path, details: { name } },
  );
}
