import { describe, expect, it } from "vitest";
import { scratchWorkspace } from "./_scratch.js";

// One record of source fetchers (issue 26, item 2): a new kind of source is its fields in core's
// SOURCE_FIELDS, one fetcher file with its key in SOURCE_FETCHERS, and the origin an installed
// copy of it shows (inventory's SOURCE_ORIGINS); nothing else in any package changes.
const FETCHER = `import type { Fetcher } from "./_fetcher.js";

export const BUCKET_FETCHER: Fetcher<"bucket"> = {
  fetch: async () => ({}),
  describe: (source) => source.url,
  within: (source) => source,
};
`;

describe("a fake kind of source", () => {
  const workspace = scratchWorkspace("skillshelf-sources-");

  it("compiles everywhere once it has its fields, its fetcher and its origin, and fails only at those records before", () => {
    workspace.edit(
      "packages/core/src/types.ts",
      '  archive: { url: "text", path: "optional" },\n',
      '  archive: { url: "text", path: "optional" },\n  bucket: { url: "text" },\n',
    );
    const missing = workspace.typeErrors();
    // every record keyed by the source types says what it lacks, and nothing else breaks
    expect(missing.length).toBeGreaterThan(0);
    expect(
      missing.filter(
        (line) =>
          !line.includes("packages/sources/src/fetchers/index.ts") &&
          !line.includes("packages/inventory/src/origin.ts"),
      ),
    ).toEqual([]);
    workspace.write("packages/sources/src/fetchers/bucket.ts", FETCHER);
    workspace.edit(
      "packages/sources/src/fetchers/index.ts",
      "  archive: ARCHIVE_FETCHER,\n",
      "  archive: ARCHIVE_FETCHER,\n  bucket: BUCKET_FETCHER,\n",
    );
    workspace.edit(
      "packages/sources/src/fetchers/index.ts",
      'import { ARCHIVE_FETCHER } from "./archive.js";',
      'import { ARCHIVE_FETCHER } from "./archive.js";\nimport { BUCKET_FETCHER } from "./bucket.js";',
    );
    workspace.edit(
      "packages/inventory/src/origin.ts",
      '  archive: (source) => ({ kind: "archive", url: source.url }),\n',
      '  archive: (source) => ({ kind: "archive", url: source.url }),\n  bucket: (source) => ({ kind: "archive", url: source.url }),\n',
    );
    expect(workspace.typeErrors()).toEqual([]);
  });
});
