import type { Origin } from "@skillshelf/inventory";
import { displayPath, type PathStyle, safeLine } from "./format.js";

/** Where an installed copy came from, in a line. */
export function originText(origin: Origin, style: PathStyle): string {
  switch (origin.kind) {
    case "index":
      return `the index ${displayPath(origin.index, style)} (${origin.source})`;
    case "git":
      return `git ${safeLine(origin.url)}${origin.ref === undefined ? "" : `#${safeLine(origin.ref)}`}${origin.commit === undefined ? "" : ` at ${origin.commit}`}`;
    case "archive":
      return `archive ${safeLine(origin.url)}`;
    case "local":
    case "import":
      return `${origin.kind} ${displayPath(origin.path, style)}`;
    case "loose":
      return `loose ${displayPath(origin.root, style)}`;
  }
}
