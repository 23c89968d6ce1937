import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  chainedLinkTarMembers,
  chainedLinkTree,
  gitRepo,
  link,
  packageTree,
  serve,
  skillFile,
  type TarMember,
  tarGz,
  testdir,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../test/_run.js";
import { type ChangeSandbox, changeSandbox, codesOf } from "../test/_sandbox.js";

/** Every hostile archive of issues 5 and 6, with the code `install` refuses it with. */
const ARCHIVES: readonly [string, TarMember[], string][] = [
  ["a .. member", [{ path: "pkg/../../evil.md", content: "x" }], "archive_entry_refused"],
  ["an absolute member", [{ path: "/tmp/evil.md", content: "x" }], "archive_entry_refused"],
  [
    "an absolute member in a pax header",
    [{ path: "/tmp/evil.md", content: "x", pax: true }],
    "archive_entry_refused",
  ],
  [
    "an absolute symlink",
    [
      { path: "pkg/a.md", content: "x" },
      { path: "pkg/link", type: "symlink", target: "/etc/passwd" },
    ],
    "archive_entry_refused",
  ],
  [
    "a symlink that climbs out",
    [
      { path: "pkg/a.md", content: "x" },
      { path: "pkg/link", type: "symlink", target: "../../x" },
    ],
    "archive_entry_refused",
  ],
  [
    "a member written through a symlink",
    [
      { path: "a/dir", type: "symlink", target: "." },
      { path: "a/dir/x.md", content: "x" },
    ],
    "archive_entry_refused",
  ],
  [
    "a repeated member",
    [
      { path: "a.md", content: "x" },
      { path: "a.md", content: "y" },
    ],
    "archive_entry_refused",
  ],
  [
    "a hard link",
    [
      { path: "a.md", content: "x" },
      { path: "b.md", type: "hardlink", target: "a.md" },
    ],
    "archive_entry_refused",
  ],
  ["a FIFO", [{ path: "pipe", type: "fifo" }], "archive_entry_refused"],
  ["a chain of .. links the kernel follows out", chainedLinkTarMembers(), "archive_entry_refused"],
  [
    "a pax size=-512 before a g header (the one that hung staging)",
    [
      { path: "PaxHeader", type: "pax", records: ["size=-512"] },
      { path: "GlobalHead", type: "globalPax", records: ["comment=x"] },
      { path: "a", content: "x" },
    ],
    "archive_invalid",
  ],
];

/** Nothing written: no copy, no state, no lock, no staging left in the temporary folder. */
function expectNothingWritten(box: ChangeSandbox, tmp: string): void {
  expect(existsSync(join(box.configDir, "lock.json"))).toBe(false);
  expect(existsSync(join(box.configDir, "packages", "state.json"))).toBe(false);
  expect(readdirSync(tmp)).toEqual([]);
}

describe("install refuses every hostile source, writing nothing", () => {
  it.each(ARCHIVES)("a .tar.gz with %s", async (_name, members, code) => {
    const box = changeSandbox();
    const tmp = testdir();
    const base = await serve({ "/hostile.tar.gz": tarGz(members) });
    const run = await runCliAsync(
      ["install", `${base}/hostile.tar.gz`, "--user", "--yes", "--json"],
      {
        cwd: box.cwd,
        env: { ...box.env, TMPDIR: tmp },
      },
    );
    expect(run.status).toBe(1);
    expect(codesOf(run)).toEqual([code]);
    expectNothingWritten(box, tmp);
  });

  it.each<[string, () => string]>([
    ["a local folder with a chain of .. links", () => testdir(chainedLinkTree())],
    [
      "a git repository with a chain of .. links",
      () => gitRepo([{ tree: chainedLinkTree() }]).path,
    ],
    [
      "a package whose link leaves it",
      () =>
        testdir({
          ...packageTree({ id: "peek" }),
          "skills/peek/secret.md": link("../../../outside"),
        }),
    ],
  ])("%s", (_name, make) => {
    const box = changeSandbox();
    const tmp = testdir();
    const source = make();
    const target = source.endsWith("repo") ? `${source}#main` : source;
    const run = box.runIn(tmp, "install", target, "--user", "--yes", "--json");
    expect(run.status).toBe(1);
    expect(codesOf(run)).toEqual(["tree_link_escape"]);
    expectNothingWritten(box, tmp);
  });
});

describe("a collection whose SKILL.md is a symlink (issue 32, item 4; issue 52, item 2)", () => {
  it.each([
    // b's file is a's: a mirror of a, which is one skill (not a clash), installed once
    ["to another skill's file inside it", "../a/SKILL.md", [["a", undefined]], ["a"], 0],
    [
      "out of the collection",
      "../../../outside/SKILL.md",
      [
        ["a", undefined],
        ["skills/b", "collection_link_outside"],
      ],
      ["a"],
      1,
    ],
  ])(
    "installs the rest and refuses the linked one alone: %s",
    async (_, target, steps, installed, status) => {
      const box = changeSandbox();
      const root = testdir({
        "source/skills/a/SKILL.md": skillFile("a", "The a skill."),
        "source/skills/b/SKILL.md": link(target),
        "outside/SKILL.md": skillFile("b", "A skill outside the collection."),
      });
      const run = await box.run(
        "install",
        join(root, "source"),
        "--skill",
        "*",
        "--user",
        "--yes",
        "--json",
      );
      expect(run.stderr).not.toContain("internal error");
      expect(run.status).toBe(status);
      const result = JSON.parse(run.stdout) as {
        plan: { steps: { id: string; refusal?: { code: string } }[] };
      };
      expect(result.plan.steps.map((step) => [step.id, step.refusal?.code])).toEqual(steps);
      expect(Object.keys(box.userLock())).toEqual(installed);
    },
  );
});

describe("a TMPDIR that does not exist (issue 51, item 4)", () => {
  it("is temp_folder_missing naming it, in install and in publish, never an internal error", () => {
    const box = changeSandbox();
    const gone = join(testdir(), "no-such-folder");
    const repo = gitRepo([{ tree: { "kit/SKILL.md": skillFile("kit", "The kit.") } }]).path;
    const install = box.runIn(gone, "install", `${repo}#main`, "--user", "--yes", "--json");
    expect(install.status).toBe(1);
    expect(codesOf(install)).toEqual(["temp_folder_missing"]);
    expect(install.stdout).toContain(gone);
    const target = gitRepo([{ tree: { "README.md": "x\n" } }]).path;
    const skill = join(testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") }), "pdf");
    const publish = box.runIn(gone, "publish", skill, `git+file://${target}`, "--json");
    expect(publish.status).toBe(1);
    expect(publish.stdout + publish.stderr).toContain("temp_folder_missing");
    expect(publish.stderr).not.toContain("internal error");
  });
});
