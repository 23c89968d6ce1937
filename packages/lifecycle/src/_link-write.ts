import {
  agentFolder,
  type Diagnostic,
  errorDiagnostic,
  isSkillshelfError,
  type LinkKind,
  type PackageScope,
} from "@skillshelf/core";
import type { LinkWriteResult } from "@skillshelf/store/writers";

/** What applying links did: committed (or nothing to do), or refused or failed with the error. */
export interface LinkApplyResult {
  readonly status: "committed" | "failed" | "refused" | "unchanged";
  readonly result?: LinkWriteResult | undefined;
  readonly error?: Diagnostic | undefined;
}

/** Run a store link writer; a `SkillshelfError` it throws becomes a failed outcome. */
export function applyWrite(write: () => LinkWriteResult): LinkApplyResult {
  try {
    return { status: "committed", result: write() };
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return {
      status: "failed",
      error: errorDiagnostic(error),
    };
  }
}

/** A link's name inside its agent's folder: its key without the folder (`.claude/skills/pdf` → `pdf`). */
export function nameInFolder(
  scope: PackageScope,
  key: string,
  link: { readonly agent: string; readonly kind: LinkKind },
): string {
  return key.slice((agentFolder(link.agent, scope, link.kind) ?? "").length + 1);
}
