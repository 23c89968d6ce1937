import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTree } from "@skillshelf/core";
import { packageTree, skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import type { CliRun } from "./_run.js";
import { type ChangeSandbox, changeSandbox } from "./_sandbox.js";

// Issue 22, items 5 and 6: input nested deeper than anything real, from a source or a clone.

/** JSON nested `depth` arrays deep: a few kilobytes, enough to exhaust a recursive reader. */
const deepJson = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** Every `code` a command printed under `--json`, wherever its output keeps them. */
function codes(run: CliRun): string[] {
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null)
      for (const [key, item] of Object.entries(value)) {
        if ((key === "code" || key === "cause") && typeof item === "string") found.add(item);
        else visit(item);
      }
  };
  visit(JSON.parse(run.stdout));
  return [...found];
}

function expectCoded(run: CliRun, code: string): void {
  expect(run.stderr).not.toContain("internal error");
  expect(run.status).toBe(1);
  expect(codes(run)).toContain(code);
}

describe("a tree nested deeper than any package (issue 22, item 5)", () => {
  const deep = "d/".repeat(1950);

  it("is refused before anything reaches the scope, and the scope stays usable", async () => {
    const box = changeSandbox();
    const source = testdir({
      "skills/deep/SKILL.md": skillFile("deep", "A skill with a very deep folder."),
      [`skills/deep/${deep}x.md`]: "x",
      "skills/fine/SKILL.md": skillFile("fine", "A plain skill."),
    });
    mkdirSync(join(box.cwd, ".git"));
    try {
      const refused = await box.run(
        "install",
        source,
        "--skill",
        "deep",
        "--project",
        "--yes",
        "--json",
      );
      expectCoded(refused, "tree_too_deep");
      expect(existsSync(join(box.cwd, ".skillshelf", "packages"))).toBe(false);
      expect(
        (await box.run("install", source, "--skill", "fine", "--project", "--yes")).status,
      ).toBe(0);
    } finally {
      // a recursive removal (the test folders' own) cannot go this deep
      removeTree(join(source, "skills", "deep"));
    }
  });

  it("left in the packages folder by an interrupted write, is removed by the next change", async () => {
    const box = changeSandbox();
    const source = testdir({ "skills/fine/SKILL.md": skillFile("fine", "A plain skill.") });
    mkdirSync(join(box.cwd, ".git"));
    expect((await box.run("install", source, "--skill", "fine", "--project", "--yes")).status).toBe(
      0,
    );
    const packages = join(box.cwd, ".skillshelf", "packages");
    writeTree(join(packages, ".fine.install-1-0a"), { [`${deep}x.md`]: "x" });
    const removed = await box.run("remove", "fine", "--project", "--yes", "--json");
    expect(removed.stderr).not.toContain("internal error");
    expect(removed.status).toBe(0);
    expect(readdirSync(packages).filter((name) => name.startsWith(".fine"))).toEqual([]);
  });
});

describe("JSON nested 3,000 deep (issue 22, item 6)", () => {
  it("in a package's plugin.json is json_too_deep, for validate and install", async () => {
    const box = changeSandbox();
    const source = testdir(packageTree({ id: "deep-kit" }));
    writeFileSync(
      join(source, "plugin.json"),
      `{"name":"deep-kit","version":"1.0.0","x":${deepJson(3000)}}`,
    );
    expectCoded(await box.run("validate", "--json", source), "json_too_deep");
    expectCoded(await box.run("install", source, "--user", "--yes", "--json"), "json_too_deep");
  });

  it("in a marketplace.json and in sources.json is json_too_deep, and search goes on", async () => {
    const box = changeSandbox();
    const index = join(testdir(), "marketplace.json");
    writeFileSync(index, `{"name":"m","plugins":${deepJson(3000)}}`);
    const searched = await box.run("search", "anything", "--from", index, "--json");
    expect(searched.stderr).not.toContain("internal error");
    expect(codes(searched)).toContain("json_too_deep");
    writeTree(box.configDir, { "sources.json": `{"version":1,"sources":${deepJson(3000)}}` });
    const listed = await box.run("sources", "list", "--json");
    expect(listed.stderr).not.toContain("internal error");
    expect(codes(listed)).toContain("json_too_deep");
  });

  it.each([
    ["state.json", "packages/state.json", ["list", "--kind", "packages", "--json"]],
    ["lock.json", "lock.json", ["verify", "--json"]],
  ])(
    "in a cloned project's %s (with a \\u escape) is json_too_deep for every command reading it",
    async (_, file, reader) => {
      const box: ChangeSandbox = changeSandbox();
      const library = join(box.cwd, ".skillshelf");
      writeTree(library, { [file]: `{"version":1,"note":"\\u0041","x":${deepJson(3000)}}` });
      const source = testdir({ "skills/fine/SKILL.md": skillFile("fine", "A plain skill.") });
      for (const args of [
        reader,
        ["verify", "--json"],
        ["install", "--project", "--yes", "--json"],
        ["install", source, "--skill", "fine", "--project", "--yes", "--json"],
      ]) {
        const run = await box.run(...args);
        expect(run.stderr, args.join(" ")).not.toContain("internal error");
        expect(codes(run), args.join(" ")).toContain("json_too_deep");
      }
    },
  );
});
