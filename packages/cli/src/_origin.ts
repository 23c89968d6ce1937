import type { Origin } from "@skillshelf/inventory";
import { displayPath, type PathStyle, safeLine } from "./format.js";

/** Where an installed copy came from, in a line. */
export function originText(origin: Origin, style: PathStyle): string {
  switch (origin.kind) {
    case "index":
      return `the index ${displayPath(origin.index, style)} (${origin.source})`;
    case "import":
      return `import ${displayPath(origin.path, style)}`;
    case "loose":
      return `loose ${displayPath(origin.root, style)}`;
    default: {
      // a source's origin: its folder, or its URL with the ref and commit that apply
      const { kind, path, url, ref, commit } = origin;
      const place = url === undefined ? displayPath(path ?? "", style) : safeLine(url);
      return `${kind} ${place}${ref === undefined ? "" : `#${safeLine(ref)}`}${commit === undefined ? "" : ` at ${commit}`}`;
    }
  }
}
