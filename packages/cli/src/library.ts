import { fileURLToPath } from "node:url";

/** The example package index shipped with the command (`library/library.yaml` in the package). */
export function bundledIndexPath(): string {
  return fileURLToPath(new URL("../library/library.yaml", import.meta.url));
}
