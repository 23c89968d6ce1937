import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchWorkspace } from "./_scratch.js";

describe("a fake operation on installed copies (issue 55, item 2)", () => {
  const workspace = scratchWorkspace("skillshelf-operations-");

  it("fails to compile at one place, the table of copy operations, and nowhere else", () => {
    workspace.edit(
      join("packages", "lifecycle", "src", "types.ts"),
      '"remove" | "rollback";',
      '"remove" | "rollback" | "archive";',
    );
    const errors = workspace.typeErrors();
    expect(errors, "the table would accept the new operation silently").toHaveLength(1);
    expect(errors[0]).toContain(join("packages", "lifecycle", "src", "_operations.ts"));
    expect(errors[0]).toMatch(/Property 'archive' is missing/);
  });
});
