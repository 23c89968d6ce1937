import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, scratchWorkspace } from "./_scratch.js";

// Where variants grow, each is one record (STYLE §4.8b): a new resource kind, source kind,
// operation or command option fails to compile at its record and nowhere else. The four edits
// go into one scratch copy and one compile (a compile of the whole program is the slow part);
// the errors are told apart by the file each names, and any error elsewhere fails the test.

const KINDS = join("packages", "core", "src", "kinds.ts");
const KINDS_TABLE = join("packages", "resources", "src", "kinds.ts");
const OPERATIONS_TABLE = join("packages", "lifecycle", "src", "_operations.ts");
const FETCHERS = join("packages", "sources", "src", "fetchers", "index.ts");
const LIST = join("packages", "cli", "src", "commands", "list.ts");
const MCP = join("packages", "cli", "src", "commands", "mcp.ts");
const DEFINITIONS = join("packages", "cli", "src", "commands.ts");

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

describe("a new variant fails to compile at its record and nowhere else", () => {
  const workspace = scratchWorkspace("skillshelf-one-place-");
  const original = (file: string) => readFileSync(join(REPO, file), "utf8");

  it("a resource kind, a source kind, an operation and a command's option, each at its own record", () => {
    const kinds = original(KINDS)
      .replace(
        'readonly ["skill", "prompt", "agent", "fleet"]',
        'readonly ["skill", "prompt", "agent", "fleet", "widget"]',
      )
      .replace('  "fleet",\n];', '  "fleet",\n  "widget",\n];');
    expect(kinds).not.toBe(original(KINDS));
    workspace.write(KINDS, kinds);
    workspace.edit(
      join("packages", "core", "src", "types.ts"),
      '  archive: { url: "text", path: "optional", sha256: "optional" },\n',
      '  archive: { url: "text", path: "optional", sha256: "optional" },\n  bucket: { url: "text" },\n',
    );
    workspace.edit(
      join("packages", "lifecycle", "src", "types.ts"),
      '"remove" | "rollback";',
      '"remove" | "rollback" | "archive";',
    );
    // an option the definition lacks (list), and one read as another type than it has (mcp)
    workspace.edit(
      LIST,
      "    readonly all: boolean;",
      "    readonly all: boolean;\n    readonly everything: boolean;",
    );
    workspace.edit(
      MCP,
      '    readonly "allow-changes": boolean;',
      '    readonly "allow-changes": number | undefined;',
    );
    const errors = workspace.typeErrors();
    const at = (file: string) => errors.filter((line) => line.includes(file));
    expect(at(KINDS_TABLE), "the KINDS table would take a new kind silently").toHaveLength(1);
    expect(at(KINDS_TABLE)[0]).toMatch(/Property 'widget' is missing/);
    expect(at(OPERATIONS_TABLE), "the operations table would take one silently").toHaveLength(1);
    expect(at(OPERATIONS_TABLE)[0]).toMatch(/Property 'archive' is missing/);
    // every record keyed by the source types says what it lacks there
    expect(at(FETCHERS).length).toBeGreaterThan(0);
    expect(at(DEFINITIONS)).toHaveLength(2);
    expect(at(DEFINITIONS).some((line) => line.includes("readonly everything: boolean"))).toBe(
      true,
    );
    // the other is mcp's definition, which its body reads with another type
    expect(at(DEFINITIONS).filter((line) => !line.includes("readonly everything"))).toHaveLength(1);
    // and nothing breaks anywhere else
    const places = [KINDS_TABLE, OPERATIONS_TABLE, FETCHERS, DEFINITIONS];
    expect(errors.filter((line) => !places.some((file) => line.includes(file)))).toEqual([]);
  });

  it("a source kind compiles everywhere once it has its fetcher", () => {
    // the other variants taken back out, the source kind completed with its fetcher and key
    for (const file of [KINDS, join("packages", "lifecycle", "src", "types.ts"), LIST, MCP])
      workspace.write(file, original(file));
    workspace.write(join("packages", "sources", "src", "fetchers", "bucket.ts"), FETCHER);
    workspace.edit(
      FETCHERS,
      "  archive: ARCHIVE_FETCHER,\n",
      "  bucket: BUCKET_FETCHER,\n  archive: ARCHIVE_FETCHER,\n",
    );
    workspace.edit(
      FETCHERS,
      'import { ARCHIVE_FETCHER } from "./archive.js";',
      'import { ARCHIVE_FETCHER } from "./archive.js";\nimport { BUCKET_FETCHER } from "./bucket.js";',
    );
    expect(workspace.typeErrors()).toEqual([]);
  });
});
