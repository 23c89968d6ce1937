import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { packageTree, serve, skillFile, tarGz, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runCliInPty, runCliInPtyAsync } from "../test/_run.js";
import { changeSandbox } from "../test/_sandbox.js";

// the first skill of the question is ticked with space, then the change is confirmed
const PICK_FIRST_AND_APPLY: readonly [string, string][] = [
  ["which should be installed", " \r"],
  ["Apply th", "y\r"],
];

describe("a change at a terminal", () => {
  it("asks before applying, default no: declining writes nothing", () => {
    const box = changeSandbox();
    const dir = testdir(packageTree({ id: "pdf" }));
    const run = runCliInPty(["install", dir, "--user"], {
      cwd: box.cwd,
      env: box.env,
      answers: [["Apply th", "\r"]],
    });
    expect(run.timedOut).toBe(false);
    expect(run.status).toBe(1);
    expect(run.output).toContain("plugin:pdf 1.0.0 from");
    expect(run.output).toContain("change_declined");
    expect(existsSync(join(box.configDir, "packages", "pdf"))).toBe(false);
  });

  it("applies once the person says yes, showing progress on the terminal", async () => {
    const box = changeSandbox();
    const dir = testdir(packageTree({ id: "pdf" }));
    const run = runCliInPty(["install", dir, "--user"], {
      cwd: box.cwd,
      env: box.env,
      answers: [["Apply th", "y\r"]],
    });
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain("fetching");
    expect(run.output).toContain("applying 1/1");
    expect(await box.skills()).toEqual(["pdf"]);
  });

  it("asks which skills of a collection to install", async () => {
    const box = changeSandbox();
    const dir = testdir({
      "skills/alpha/SKILL.md": skillFile("alpha", "The alpha skill."),
      "skills/beta/SKILL.md": skillFile("beta", "The beta skill."),
    });
    const run = runCliInPty(["install", dir, "--user"], {
      cwd: box.cwd,
      env: box.env,
      answers: PICK_FIRST_AND_APPLY,
    });
    expect(run.status, run.output).toBe(0);
    expect(await box.skills()).toEqual(["alpha"]);
  });

  it("offers a name two skills share by each one's path (issue 25, item 1)", async () => {
    const box = changeSandbox();
    const dir = testdir({
      "skills/team-a/access/SKILL.md": skillFile("access", "Access, the a way."),
      "skills/team-b/access/SKILL.md": skillFile("access", "Access, the b way."),
      "skills/other/SKILL.md": skillFile("other", "Another skill."),
    });
    // the first entry (skills/team-a/access) is ticked
    const run = runCliInPty(["install", dir, "--user"], {
      cwd: box.cwd,
      env: box.env,
      answers: PICK_FIRST_AND_APPLY,
    });
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain("skills/team-a/access");
    expect(await box.skills()).toEqual(["access"]);
  });

  it("fetches the collection once for the question and the install (issue 23, item 13)", async () => {
    const box = changeSandbox();
    let fetches = 0;
    const archive = tarGz([
      { path: "kit/skills/alpha/SKILL.md", content: skillFile("alpha", "The alpha skill.") },
      { path: "kit/skills/beta/SKILL.md", content: skillFile("beta", "The beta skill.") },
    ]);
    const base = await serve({
      "/kit.tar.gz": (_request, response) => {
        fetches += 1;
        response.end(archive);
      },
    });
    const tmp = testdir();
    const run = await runCliInPtyAsync(["install", `${base}/kit.tar.gz`, "--user"], {
      cwd: box.cwd,
      env: { ...box.env, TMPDIR: tmp },
      answers: PICK_FIRST_AND_APPLY,
    });
    expect(run.status, run.output).toBe(0);
    expect(await box.skills()).toEqual(["alpha"]);
    expect(fetches).toBe(1);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("colours the plan on a terminal, and not with NO_COLOR", () => {
    const box = changeSandbox();
    const dir = testdir(packageTree({ id: "pdf" }));
    const bold = "\u001b[1minstall";
    const coloured = runCliInPty(["install", dir, "--user", "--dry-run"], {
      cwd: box.cwd,
      env: box.env,
    });
    expect(coloured.output).toContain(bold);
    const plain = runCliInPty(["install", dir, "--user", "--dry-run"], {
      cwd: box.cwd,
      env: { ...box.env, NO_COLOR: "1" },
    });
    expect(plain.status).toBe(0);
    expect(plain.output).toContain("install plugin:pdf");
    expect(plain.output).not.toContain(bold);
  });
});
