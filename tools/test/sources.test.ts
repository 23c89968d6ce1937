import { describe, expect, it } from "vitest";
import { scratchWorkspace } from "./_scratch.js";

// One record of source fetchers: a new kind of source is its fields in core's SOURCE_FIELDS
// (core, because the store that checks records sits beside sources, not above) and one fetcher
// file with its key in SOURCE_FETCHERS; nothing else in any package changes.
const FETCHER = `import type { Fetcher } from "./_fetcher.js";

export const BUCKET_FETCHER: Fetcher<"bucket"> = {
  syntax: "bucket:<url>",
  parse: (text) => (text.startsWith("bucket:") ? { ok: true, source: { type: "bucket", url: text.slice(7) } } : undefined),
  fetch: async () => ({}),
  describe: (source) => source.url,
  origin: (source) => ({ kind: "bucket", url: source.url }),
  within: (source) => source,
  place: (source) => source.url,
  pinned: () => false,
};
`;

describe("a fake kind of source", () => {
  const workspace = scratchWorkspace("skillshelf-sources-");

  it("compiles everywhere once it has its fields and its fetcher, and fails only at the fetchers' record before", () => {
    workspace.edit(
      "packages/core/src/types.ts",
      '  archive: { url: "text", path: "optional", sha256: "optional" },\n',
      '  archive: { url: "text", path: "optional", sha256: "optional" },\n  bucket: { url: "text" },\n',
    );
    const missing = workspace.typeErrors();
    // every record keyed by the source types says what it lacks, and nothing else breaks
    expect(missing.length).toBeGreaterThan(0);
    expect(
      missing.filter((line) => !line.includes("packages/sources/src/fetchers/index.ts")),
    ).toEqual([]);
    workspace.write("packages/sources/src/fetchers/bucket.ts", FETCHER);
    workspace.edit(
      "packages/sources/src/fetchers/index.ts",
      "  archive: ARCHIVE_FETCHER,\n",
      "  bucket: BUCKET_FETCHER,\n  archive: ARCHIVE_FETCHER,\n",
    );
    workspace.edit(
      "packages/sources/src/fetchers/index.ts",
      'import { ARCHIVE_FETCHER } from "./archive.js";',
      'import { ARCHIVE_FETCHER } from "./archive.js";\nimport { BUCKET_FETCHER } from "./bucket.js";',
    );
    expect(workspace.typeErrors()).toEqual([]);
  });
});
