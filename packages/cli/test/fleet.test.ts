import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

const DOC = join(import.meta.dirname, "..", "..", "..", "docs", "fleet.md");

/** Every key of `value` and of the first item of each list in it, with its path (`a.b[].c`). */
function keysOf(value: unknown, at = ""): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [] : keysOf(value[0], `${at}[]`);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = at === "" ? key : `${at}.${key}`;
    // an origin's fields are its source kind's; a diagnostic's are the catalogue's
    const leaf =
      /(^|\.)(origin|diagnostics|source|owner|truncated)$/.test(path) || key === "details";
    return [path, ...(leaf ? [] : keysOf(inner, path))];
  });
}

describe("the fleet record (issue 59, item 5)", () => {
  it("inventory --json names the org in force and the revoked copies, and docs/fleet.md documents every field it writes", async () => {
    const box = changeSandbox();
    const skill = join(testdir({ "tidy/SKILL.md": skillFile("tidy", "Tidy a folder.") }), "tidy");
    expect((await box.run("install", skill, "--user", "--yes")).status).toBe(0);
    const org = testdir({ "org.yaml": "version: 1\nname: acme\n" });
    const digest = createHash("sha256").update("version: 1\nname: acme\n").digest("hex");
    // joined by a path relative to here, kept by its absolute one (a sync may run from anywhere)
    const joined = await box.run(
      "org",
      "join",
      relative(box.cwd, org),
      "--digest",
      `sha256:${digest}`,
    );
    expect(joined.status, joined.stderr).toBe(0);
    const feed = join(testdir(), "advisories.json");
    writeFileSync(
      feed,
      JSON.stringify({
        version: 1,
        advisories: [
          {
            id: "SKS-9",
            summary: "Bad.",
            severity: "high",
            published: "2026-12-01T00:00:00Z",
            revoked: { sources: [skill] },
          },
        ],
      }),
    );
    expect((await box.run("advisories", "add", feed)).status).toBe(0);

    const record = JSON.parse((await box.run("inventory", "--json")).stdout);
    expect(record.org).toMatchObject({ name: "acme", source: org, digest: `sha256:${digest}` });
    expect(record.advisories.revoked).toEqual([
      expect.objectContaining({ id: "tidy", scope: "user", advisory: "SKS-9" }),
    ]);
    const documented = readFileSync(DOC, "utf8");
    const missing = keysOf(record)
      .map((path) => path.split(".").at(-1)?.replace("[]", "") ?? "")
      .filter((key) => !documented.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });

  it("keeps the org- feed names for the org channel", async () => {
    const box = changeSandbox();
    const refused = await box.run("advisories", "add", "feed.json", "--name", "org-security");
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("usage_invalid_value");
  });
});
