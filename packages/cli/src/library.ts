import { fileURLToPath } from "node:url";
import { UsageError } from "./io.js";

/** The example package index shipped with the command (`library/library.yaml` in the package). */
export function bundledIndexPath(): string {
  return fileURLToPath(new URL("../library/library.yaml", import.meta.url));
}

/** `--user` / `--project` as one scope, `fallback` when neither is given; both is a usage error. */
export function scopeOption(
  values: { readonly user?: boolean | undefined; readonly project?: boolean | undefined },
  fallback: "user" | "project",
): "user" | "project" {
  if (values.user === true && values.project === true)
    throw new UsageError("--user and --project cannot be combined; pick one scope");
  return values.project === true ? "project" : values.user === true ? "user" : fallback;
}
