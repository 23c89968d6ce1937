import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileStrictly, linkWorkspace, REPO } from "./_scratch.js";

const temp = mkdtempSync(join(tmpdir(), "skillshelf-declarations-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: Record<string, unknown>;
}

/** Every entry a published package exports, as a consumer names it (`@skillshelf/audit/sarif`). */
function publishedEntries(): { folder: string; name: string; entries: string[] }[] {
  return readdirSync(join(REPO, "packages")).flatMap((folder) => {
    const manifest: Manifest = JSON.parse(
      readFileSync(join(REPO, "packages", folder, "package.json"), "utf8"),
    );
    if (manifest.private === true) return [];
    const entries = Object.keys(manifest.exports ?? {})
      .filter((entry) => !entry.endsWith(".json"))
      .map((entry) => `${manifest.name}${entry.slice(1)}`);
    return [{ folder, name: manifest.name, entries }];
  });
}

describe("the built declarations (issue 31, item 3)", () => {
  it("type-check strictly, library checks on, for a consumer importing every published entry", () => {
    const packages = publishedEntries();
    linkWorkspace(temp);
    const entries = packages.flatMap(({ entries }) => entries);
    writeFileSync(
      join(temp, "consumer.mts"),
      entries.map((entry, index) => `import * as entry${index} from "${entry}";\n`).join("") +
        `export const all: unknown[] = [${entries.map((_, index) => `entry${index}`).join(", ")}];\n`,
    );
    const compiled = compileStrictly(temp, ["consumer.mts"], { noEmit: true, skipLibCheck: false });
    expect(compiled.stdout).toBe("");
    expect(compiled.status).toBe(0);
    expect(entries).toContain("@skillshelf/store/writers");
  }, 300_000);
});
