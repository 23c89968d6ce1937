import { statSync } from "node:fs";
import { isInside, realpathOrUndefined, resolveContained } from "./containment.js";
import { createDiagnostic } from "./diagnostics.js";
import { errnoCode } from "./errors.js";
import type { ResourceRoot } from "./roots.js";
import type { Diagnostic } from "./types.js";

/** Where a followed symlink leads: a contained file, folder or other node, or a refusal. */
export type LinkTarget =
  | { readonly ok: true; readonly kind: "file" | "dir" | "other"; readonly real: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/**
 * Follow the symlink at `path`. A target outside `anchorReal` (and outside every folder of
 * `alsoInside`, real paths too) is refused with `symlink_escape` (an error), a dangling or
 * looping link with `broken_link` (a warning); nothing is read.
 */
export function followLink(
  path: string,
  anchorReal: string,
  alsoInside: readonly string[] = [],
): LinkTarget {
  const resolved = resolveContained(path, anchorReal);
  if (resolved.status === "missing") {
    return {
      ok: false,
      diagnostic: createDiagnostic("warning", "broken_link", `${path} is a symlink to nothing`, {
        path,
      }),
    };
  }
  if (
    resolved.status === "outside" &&
    !alsoInside.some((folder) => isInside(folder, resolved.real))
  )
    return { ok: false, diagnostic: symlinkEscape(path, resolved.real, anchorReal) };
  const stats = statSync(resolved.real, { throwIfNoEntry: false });
  return {
    ok: true,
    kind: stats?.isFile() ? "file" : stats?.isDirectory() ? "dir" : "other",
    real: resolved.real,
  };
}

/** The `symlink_escape` error for a path that resolves outside its anchor. */
function symlinkEscape(path: string, real: string, anchor: string): Diagnostic {
  return createDiagnostic(
    "error",
    "symlink_escape",
    `${path} resolves to ${real}, outside ${anchor}; nothing may leave its root through a symlink`,
    { path, details: { realPath: real, anchor } },
  );
}

/** The `read_failed` warning for a folder or file the walk could not read. */
export function readFailed(path: string, error: unknown): Diagnostic {
  return createDiagnostic(
    "warning",
    "read_failed",
    `cannot read ${path} (${errnoCode(error) ?? String(error)})`,
    { path },
  );
}

/** A root resolved on disk: its real path and the real anchor nothing under it may leave. */
export type AnchoredRoot =
  | { readonly status: "missing" }
  | { readonly status: "refused"; readonly real: string; readonly diagnostic: Diagnostic }
  | { readonly status: "ok"; readonly real: string; readonly anchor: string };

/**
 * Resolve a root on disk. A missing root is not an error. A root inside its containment folder
 * anchors there; a user or explicit root elsewhere anchors to itself; any other root that leads
 * outside its containment is refused with `symlink_escape`.
 *
 * @internal Exported for core's own tests only.
 */
export function anchorRoot(
  root: Pick<ResourceRoot, "path" | "scope" | "containment">,
): AnchoredRoot {
  const real = realpathOrUndefined(root.path);
  if (real === undefined) return { status: "missing" };
  if (root.containment === undefined) return { status: "ok", real, anchor: real };
  const anchor =
    root.containment === root.path
      ? real
      : (realpathOrUndefined(root.containment) ?? root.containment);
  if (isInside(anchor, real)) return { status: "ok", real, anchor };
  if (root.scope === "user" || root.scope === "cli") return { status: "ok", real, anchor: real };
  return { status: "refused", real, diagnostic: symlinkEscape(root.path, real, root.containment) };
}
