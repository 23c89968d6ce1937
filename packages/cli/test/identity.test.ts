import { appendFileSync, cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

const CORPUS = join(CORPUS_DIR, "skills", "anthropics-skills", "skills");

interface Row {
  name: string;
  path: string;
  identity: string;
  drift?: string[];
  shadowedBy?: string;
  locations: {
    path: string;
    agent: string | null;
    scope: string;
    linked: boolean;
    digest: string;
  }[];
}

/** Put a corpus skill into a folder (relative to `base`) as `<folder>/<name>`. */
function place(base: string, folder: string, name: string): string {
  const dir = join(base, folder, name);
  mkdirSync(join(dir, ".."), { recursive: true });
  cpSync(join(CORPUS, name), dir, { recursive: true });
  return dir;
}

describe("one identity per skill", () => {
  it("groups equal copies across agents and scopes, flags drift, and marks our links", async () => {
    const box = changeSandbox();
    // brand-guidelines: the same content in three agents' folders, user and project
    place(box.home, ".claude/skills", "brand-guidelines");
    place(box.cwd, ".agents/skills", "brand-guidelines");
    place(box.cwd, ".github/skills", "brand-guidelines");
    // internal-comms: one copy edited in Codex's folder
    place(box.home, ".claude/skills", "internal-comms");
    appendFileSync(
      join(place(box.home, ".codex/skills", "internal-comms"), "SKILL.md"),
      "\nLocal notes.\n",
    );
    // doc-coauthoring: in our library, linked into pi
    place(box.configDir, "skills", "doc-coauthoring");
    expect(
      (await box.run("link", "doc-coauthoring", "--agent", "pi", "--user", "--yes")).status,
    ).toBe(0);

    const run = await box.run("list", "--all", "--json");
    expect(run.status, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout).skills as Row[];
    const of = (name: string) => rows.filter((row) => row.name === name);

    const [brand, ...noMoreBrand] = of("brand-guidelines");
    expect(noMoreBrand).toEqual([]);
    expect(brand?.drift).toBeUndefined();
    expect(brand?.locations.map((l) => [l.agent, l.scope, l.linked])).toEqual(
      expect.arrayContaining([
        ["claude-code", "user", false],
        ["agents", "project", false],
        ["copilot", "project", false],
      ]),
    );
    expect(brand?.locations).toHaveLength(3);
    expect(new Set(brand?.locations.map((l) => l.digest))).toEqual(new Set([brand?.identity]));

    const comms = of("internal-comms");
    expect(comms).toHaveLength(2);
    const digests = comms.map((row) => row.identity);
    expect(new Set(digests).size).toBe(2);
    for (const row of comms) expect(row.drift).toEqual(digests);
    expect(comms.map((row) => row.locations.map((l) => l.agent))).toEqual([
      ["claude-code"],
      ["codex"],
    ]);
    expect(comms[1]?.shadowedBy).toBe(comms[0]?.path);

    const [doc] = of("doc-coauthoring");
    expect(doc?.locations.map((l) => [l.agent, l.linked])).toEqual([
      [null, false],
      ["pi", true],
    ]);

    const text = (await box.run("list", "--all")).stdout;
    expect(text).toContain("drift");
    expect(text).toContain("Locations:");

    const shown = JSON.parse((await box.run("show", "internal-comms", "--json")).stdout);
    expect(shown.drift).toEqual(digests);
    expect(shown.locations).toHaveLength(2);
  });
});
