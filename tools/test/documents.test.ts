import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "..", "..");

describe("documents a newcomer reads (issue 55, item 7)", () => {
  it("keeps docs/decisions.md to standing decisions: at most 40 KB", () => {
    // a superseded decision is replaced, not appended; history lives in commits and changesets
    expect(statSync(join(REPO, "docs", "decisions.md")).size).toBeLessThanOrEqual(40 * 1024);
  });
});
