import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestTree, resolveEnvironment } from "@skillshelf/core";
import { observeCopyFacts } from "@skillshelf/store";
import { installPackage } from "@skillshelf/store/writers";
import { packageTree, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type ChangeSandbox, changeSandbox, codesOf } from "./_sandbox.js";

// Issue 24: exact where it matters, each reproduced through the built bin.

// a package reference, as a template writes it (not a JavaScript placeholder)
const MISSING = ["$", "{component:script:missing}"].join("");

/** A plugin whose prompt names a component its manifest does not declare. */
function brokenReferenceTree() {
  return packageTree({
    id: "kit",
    prompts: ["bad"],
    files: { "prompts/bad.md": `Run ${MISSING} on $ARGUMENTS.\n` },
  });
}

/** Put a package's folder into the user scope as an older Skillshelf would have, unchecked. */
function placeCopy(box: ChangeSandbox, dir: string, id: string): void {
  const environment = resolveEnvironment({
    home: box.home,
    cwd: box.cwd,
    configDir: box.configDir,
    env: {},
  });
  installPackage({
    environment,
    scope: "user",
    staged: { dir, digest: digestTree(dir).digest },
    origin: { source: { type: "local", path: dir } },
    reviewed: observeCopyFacts({ environment, scope: "user", id }),
  });
}

describe("an unresolvable component reference (item 2)", () => {
  it("fails validation naming the file and the reference, and is refused by install", async () => {
    const box = changeSandbox();
    const dir = testdir(brokenReferenceTree());
    const validated = JSON.parse((await box.run("validate", dir, "--json")).stdout) as {
      results: { valid: boolean; diagnostics: { code: string; path: string; message: string }[] }[];
    };
    const [result] = validated.results;
    expect(result?.valid).toBe(false);
    const found = result?.diagnostics.find(
      (finding) => finding.code === "package_reference_unknown",
    );
    expect(found?.path).toBe(join(dir, "prompts", "bad.md"));
    expect(found?.message).toContain(MISSING);
    const installed = await box.run("install", dir, "--user", "--yes", "--json");
    expect(installed.status).toBe(1);
    expect(codesOf(installed)).toEqual(["package_invalid"]);
    const text = await box.run("install", dir, "--user", "--yes");
    expect(text.stdout).toContain("package_reference_unknown");
  });

  it("makes an installed template unavailable everywhere alike: list, prompt and inventory", async () => {
    const box = changeSandbox();
    placeCopy(box, testdir(brokenReferenceTree()), "kit");
    const listed = JSON.parse((await box.run("list", "--kind", "prompts", "--json")).stdout) as {
      prompts: { name: string; unavailable: string | null }[];
    };
    expect(listed.prompts.map((row) => [row.name, row.unavailable])).toEqual([
      ["bad", `${MISSING} names a component package kit does not declare`],
    ]);
    const invoked = await box.run("prompt", "--json", "bad", "x");
    expect(invoked.status).toBe(1);
    expect(JSON.parse(invoked.stdout)).toMatchObject({ code: "prompt_unavailable" });
    const inventory = JSON.parse(
      (await box.run("inventory", "--kind", "prompt", "--json")).stdout,
    ) as {
      inventory: { resources: { name: string; availability: string }[] };
    };
    expect(inventory.inventory.resources.map((row) => [row.name, row.availability])).toEqual([
      ["bad", "unavailable"],
    ]);
  });
});

describe("an unavailable skill in list's summary (issue 52, item 10)", () => {
  it("is counted as unavailable, as its MODEL column says, not as operator-only", async () => {
    const box = changeSandbox();
    const tree = packageTree({
      id: "kit",
      skills: ["pdf"],
      files: { "skills/pdf/SKILL.md": skillFile("pdf", "Use for pdf.", "", `Run ${MISSING}.\n`) },
    });
    placeCopy(box, testdir(tree), "kit");
    const listed = await box.run("list");
    expect(listed.stdout).toMatch(/\bunavailable\b/);
    expect(listed.stdout).toContain("0 operator-only, 1 unavailable;");
  });
});

describe("install --force (item 4)", () => {
  it("refuses a replacement that does not load, and keeps the working copy", async () => {
    const box = changeSandbox();
    const good = testdir(packageTree({ id: "base", kind: "skill" }));
    expect((await box.run("install", good, "--user", "--yes")).status).toBe(0);
    const digest = box.userLock().base?.digest;
    const broken = testdir({
      ...packageTree({ id: "base", kind: "skill", version: "2.0.0" }),
      "SKILL.md": "---\nname: base\n---\nNo description.\n",
    });
    const forced = await box.run("install", broken, "--user", "--yes", "--force", "--json");
    expect(forced.status).toBe(1);
    const refusal = (
      JSON.parse(forced.stdout) as {
        plan: {
          steps: { refusal?: { code: string; details: { diagnostics: { path: string }[] } } }[];
        };
      }
    ).plan.steps[0]?.refusal;
    expect(refusal?.code).toBe("package_invalid");
    expect(refusal?.details.diagnostics.map((finding) => finding.path)).toContain("SKILL.md");
    expect(box.userLock().base?.digest).toBe(digest);
    expect((await box.run("verify")).status).toBe(0);
    expect(readFileSync(join(box.configDir, "packages", "base", "SKILL.md"), "utf8")).toBe(
      skillFile("base", "The base skill."),
    );
    // nor does it install first time, so no copy that offers no skill can meet a requirement
    const fresh = changeSandbox();
    expect(codesOf(await fresh.run("install", broken, "--user", "--yes", "--json"))).toEqual([
      "package_invalid",
    ]);
  });
});

describe("two skills of one name in a folder (item 3)", () => {
  const clash = (folder: string) =>
    `---\nname: same\ndescription: A skill in ${folder}.\n---\nBody\n`;
  it.each([
    [
      "a collection",
      { "skills/one/SKILL.md": clash("one"), "skills/two/SKILL.md": clash("two") },
      "collection_duplicate",
    ],
    [
      // read as install reads it: skill folders at the root (issue 25)
      "a folder of skill folders",
      { "one/SKILL.md": clash("one"), "two/SKILL.md": clash("two") },
      "collection_duplicate",
    ],
  ] as const)("%s is invalid, lenient or strict", async (_layout, tree, code) => {
    const box = changeSandbox();
    const dir = testdir(tree);
    for (const mode of [[], ["--strict"]]) {
      const run = await box.run("validate", dir, ...mode, "--json");
      expect(run.status, run.stdout).toBe(1);
      const [result] = (
        JSON.parse(run.stdout) as {
          results: { diagnostics: { severity: string; code: string }[] }[];
        }
      ).results;
      expect(result?.diagnostics).toContainEqual(
        expect.objectContaining({ severity: "error", code }),
      );
    }
  });
});

describe("what the library has, at the command line (item 5)", () => {
  it("catalog --installable lists installed packages with their state and what indexes offer", async () => {
    const box = changeSandbox();
    expect(
      (await box.run("install", testdir(packageTree({ id: "tools" })), "--user", "--yes")).status,
    ).toBe(0);
    expect(
      (await box.run("install", testdir(packageTree({ id: "spare" })), "--user", "--yes")).status,
    ).toBe(0);
    expect((await box.run("disable", "spare", "--user", "--yes")).status).toBe(0);
    const offered = testdir(packageTree({ id: "offered", kind: "skill" }));
    const index = join(testdir(), "library.yaml");
    writeFileSync(
      index,
      `- kind: skill\n  name: offered\n  description: Offered, not installed.\n  sourceUrl: ${offered}\n  version: 1.0.0\n  sha256: ${digestTree(offered).digest}\n`,
    );
    expect((await box.run("sources", "add", index, "--user")).status).toBe(0);
    const plain = JSON.parse((await box.run("catalog", "--json")).stdout) as {
      rows: { kind: string }[];
    };
    expect(new Set(plain.rows.map((row) => row.kind))).toEqual(new Set(["ready"]));
    const view = JSON.parse((await box.run("catalog", "--installable", "--json")).stdout) as {
      rows: { kind: string; name: string }[];
      text: string;
    };
    expect(
      view.rows.filter((row) => row.kind !== "ready").map((row) => [row.kind, row.name]),
    ).toEqual([
      ["package", "spare"],
      ["package", "tools"],
      ["marketplace", "offered"],
    ]);
    expect(view.text).toContain("disabled");
  });

  it("inspect shows one copy by id or by a resource key, and says when there is none", async () => {
    const box = changeSandbox();
    expect(
      (await box.run("install", testdir(packageTree({ id: "tools" })), "--user", "--yes")).status,
    ).toBe(0);
    const byId = JSON.parse((await box.run("inspect", "tools", "--json")).stdout) as {
      inspection: {
        copy: { id: string; state: string };
        resources: { kind: string; name: string }[];
      };
    };
    expect(byId.inspection.copy).toMatchObject({ id: "tools", state: "loadable" });
    expect(byId.inspection.resources.map((row) => `${row.kind}:${row.name}`)).toEqual([
      "skill:tools",
    ]);
    const inventory = JSON.parse(
      (await box.run("inventory", "--kind", "skill", "--json")).stdout,
    ) as {
      inventory: { resources: { key: string; owner?: { id: string } }[] };
    };
    const key = inventory.inventory.resources.find((row) => row.owner?.id === "tools")
      ?.key as string;
    // the key finds the package that owns it, in inventory and inspect alike
    const narrowed = JSON.parse((await box.run("inventory", key, "--json")).stdout) as {
      inventory: { copies: { id: string }[]; packages: unknown[]; resources: { key: string }[] };
    };
    expect(narrowed.inventory.copies.map((copy) => copy.id)).toEqual(["tools"]);
    expect(narrowed.inventory.resources.map((row) => row.key)).toEqual([key]);
    const byKey = await box.run("inspect", key);
    expect(byKey.status, byKey.stderr).toBe(0);
    expect(byKey.stdout).toContain("plugin:tools 1.0.0 (user): loadable");
    const missing = await box.run("inspect", "nothing", "--json");
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout).diagnostics[0].code).toBe("not_installed");
    expect((await box.run("inspect", "skill:nope@user#x/SKILL.md")).stderr).toContain(
      "resource_unknown",
    );
  });

  it("a change names the backup it kept of files changed by hand", async () => {
    const box = changeSandbox();
    const source = testdir(packageTree({ id: "tools" }));
    expect((await box.run("install", source, "--user", "--yes")).status).toBe(0);
    const edited = join(box.configDir, "packages", "tools", "skills", "tools", "SKILL.md");
    writeFileSync(edited, "---\nname: tools\ndescription: Edited by hand.\n---\nMine.\n");
    // the same package over hand edits is refused as such; --force repairs, keeping them
    expect(codesOf(await box.run("install", source, "--user", "--yes", "--json"))).toEqual([
      "local_changes",
    ]);
    const repaired = await box.run("install", source, "--user", "--yes", "--force", "--json");
    expect(repaired.status, repaired.stdout).toBe(0);
    const [outcome] = (
      JSON.parse(repaired.stdout) as { outcomes: { recovery?: { packageBackup: string } }[] }
    ).outcomes;
    const backup = outcome?.recovery?.packageBackup as string;
    expect(readFileSync(join(backup, "skills", "tools", "SKILL.md"), "utf8")).toContain("Mine.");
    writeFileSync(edited, "changed again\n");
    const text = await box.run("install", source, "--user", "--yes", "--force");
    expect(text.stdout).toContain("kept the files that differed from the record at ");
  });
});
