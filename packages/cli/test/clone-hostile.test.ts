import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type ChangeSandbox, changeSandbox } from "./_sandbox.js";

// A cloned repository can carry symlinks where Skillshelf keeps its own folders (issue 32, item 1;
// issue 22, item 4). None may lead a writer out of the project.

/** What stopped a change command's step, from its JSON output: the writer's code and path. */
function failure(
  stdout: string,
): { cause?: string | undefined; path?: string | undefined } | undefined {
  const result = JSON.parse(stdout) as {
    outcomes: { error?: { details?: { cause?: string }; path?: string } }[];
  };
  const error = result.outcomes.find((outcome) => outcome.error !== undefined)?.error;
  return error === undefined ? undefined : { cause: error.details?.cause, path: error.path };
}

/** A folder beside the project that must survive: a sibling project with a file in it. */
function siblingProject(): string {
  const sibling = testdir({ "keep/notes.md": "mine\n", ".git/HEAD": "ref: refs/heads/main\n" });
  return sibling;
}

/** Put a relative symlink at `path` inside the project, pointing at `target`. */
function plant(path: string, target: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(relative(dirname(path), target), path);
}

async function installInto(box: ChangeSandbox): ReturnType<ChangeSandbox["run"]> {
  const source = testdir({ "skills/s1/SKILL.md": skillFile("s1", "A skill to install.") });
  return await box.run("install", source, "--skill", "s1", "--project", "--yes", "--json");
}

describe("a cloned project whose library folders are symlinks", () => {
  it.each([
    // `.previous -> ../../..` in the report: every writer used to empty its target
    [".skillshelf/packages/.previous", (sibling: string) => sibling],
    [".skillshelf/packages", (sibling: string) => sibling],
    [".skillshelf", (sibling: string) => sibling],
    // dangling: the first install used to create the file it points at
    [".skillshelf/packages/.gitignore", (sibling: string) => join(sibling, "victim")],
  ])(
    "refuses %s as a symlink out of the project, and the folder it points at survives",
    async (path, to) => {
      const box = changeSandbox();
      const sibling = siblingProject();
      const before = readdirSync(sibling).sort();
      mkdirSync(join(box.cwd, ".git"));
      plant(join(box.cwd, path), to(sibling));
      const run = await installInto(box);
      expect(run.status).toBe(1);
      expect(failure(run.stdout)).toEqual({
        cause: "library_symlinked",
        path: join(box.cwd, path),
      });
      expect(readdirSync(sibling).sort()).toEqual(before);
      expect(existsSync(join(sibling, "keep", "notes.md"))).toBe(true);
      expect(existsSync(join(sibling, "victim"))).toBe(false);
      // verify and doctor say so too, instead of "no problems"
      for (const command of ["verify", "doctor"]) {
        const run = await box.run(command, "--json");
        expect(run.status).toBe(1);
        const found = JSON.parse(run.stdout) as {
          scopes?: { problems: { code: string; path: string }[] }[];
          findings?: { code: string; path: string }[];
        };
        const problems = found.findings ?? found.scopes?.flatMap((scope) => scope.problems) ?? [];
        expect(problems.map((problem) => [problem.code, problem.path])).toContainEqual([
          "library_symlinked",
          join(box.cwd, path),
        ]);
      }
    },
  );

  it("never shows a model the packages behind a .skillshelf that links out of the project", async () => {
    const elsewhere = changeSandbox();
    mkdirSync(join(elsewhere.cwd, ".git"));
    expect((await installInto(elsewhere)).status).toBe(0);
    const box = changeSandbox();
    plant(join(box.cwd, ".skillshelf"), join(elsewhere.cwd, ".skillshelf"));
    const listed = JSON.parse((await box.run("list", "--json")).stdout) as {
      skills: { name: string }[];
      diagnostics: { code: string; path: string }[];
    };
    expect(listed.skills.map((skill) => skill.name)).not.toContain("s1");
    expect(listed.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "library_symlinked",
      join(box.cwd, ".skillshelf"),
    ]);
    expect((await box.run("catalog")).stdout).not.toContain("s1");
  });

  it("follows a .skillshelf that links to a folder inside the project", async () => {
    const box = changeSandbox();
    mkdirSync(join(box.cwd, "tools", "skillshelf"), { recursive: true });
    plant(join(box.cwd, ".skillshelf"), join(box.cwd, "tools", "skillshelf"));
    const run = await installInto(box);
    expect(run.status).toBe(0);
    expect(existsSync(join(box.cwd, "tools", "skillshelf", "packages", "s1", "SKILL.md"))).toBe(
      true,
    );
  });

  it("keeps a .gitignore the project already has, and writes one where there is none", async () => {
    const box = changeSandbox();
    mkdirSync(join(box.cwd, ".skillshelf", "packages"), { recursive: true });
    writeFileSync(join(box.cwd, ".skillshelf", "packages", ".gitignore"), "*\n!keep\n");
    expect((await installInto(box)).status).toBe(0);
    const other = changeSandbox();
    mkdirSync(join(other.cwd, ".git"));
    expect((await installInto(other)).status).toBe(0);
    expect(existsSync(join(other.cwd, ".skillshelf", "packages", ".gitignore"))).toBe(true);
  });
});
