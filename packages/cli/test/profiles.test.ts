import { lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type ChangeSandbox, changeSandbox } from "./_sandbox.js";

/** The user's own Codex settings: comments, a table of theirs, a skill they turned off. */
const CODEX = `# my settings
model = "o3"   # keep this

[[skills.config]]
# my own: never Skillshelf's to touch
name = "legacy"
enabled = false

[profiles.fast]
model = "o4-mini"
`;

const OPENCODE = `{
  // my own settings
  "theme": "dark",
  "skills": { "enabled": { "legacy": false } }
}
`;

/** A project whose `.agents/skills` (read by Codex and OpenCode alike) holds `names`. */
function projectWith(names: readonly string[], description = (name: string) => `Use for ${name}.`) {
  const box = changeSandbox();
  for (const name of names) {
    const dir = join(box.cwd, ".agents", "skills", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "SKILL.md"), skillFile(name, description(name)));
  }
  return box;
}

function settings(box: ChangeSandbox) {
  const codex = join(box.home, ".codex", "config.toml");
  const opencode = join(box.home, ".config", "opencode", "opencode.json");
  mkdirSync(join(box.home, ".codex"), { recursive: true });
  mkdirSync(join(box.home, ".config", "opencode"), { recursive: true });
  writeFileSync(codex, CODEX);
  writeFileSync(opencode, OPENCODE);
  return { codex, opencode };
}

/** The names a Codex config turns off, in order. */
function codexOff(text: string): string[] {
  return [
    ...text.matchAll(/\[\[skills\.config\]\][^[]*?name = "([^"]+)"\s*\nenabled = false/g),
  ].map((match) => match[1] as string);
}

describe("profiles (issue 60, items 1 and 2)", () => {
  it("turns every other skill off in Codex's and OpenCode's own switch, keeps the user's content, and another profile or rollback undoes it", async () => {
    const box = projectWith(["pdf", "tidy", "lint"]);
    const { codex, opencode } = settings(box);
    expect((await box.run("profile", "create", "focus", "--skill", "pdf,lint")).status).toBe(0);
    expect((await box.run("profile", "create", "cleanup", "--skill", "tidy")).status).toBe(0);
    // a project's profiles are committed with it
    expect(
      JSON.parse(readFileSync(join(box.cwd, ".skillshelf", "profiles.json"), "utf8")).profiles,
    ).toEqual({ cleanup: ["tidy"], focus: ["lint", "pdf"] });

    const used = await box.run("profile", "use", "focus", "--agent", "codex,opencode", "--json");
    expect(used.status, used.stderr).toBe(0);
    expect(codexOff(readFileSync(codex, "utf8"))).toEqual(["legacy", "tidy"]);
    expect(
      JSON.parse(readFileSync(opencode, "utf8").replace(/\/\/.*\n/, "")).skills.enabled,
    ).toEqual({ legacy: false, tidy: false });
    expect(readFileSync(opencode, "utf8")).toContain("// my own settings");
    // explain reads Codex's switch where Codex reads it: what it will not list is said so
    const explained = JSON.parse((await box.run("explain", "--agent", "codex", "--json")).stdout);
    const codexView = explained.agents.find((one: { agent: string }) => one.agent === "codex");
    expect(codexView.hidden).toEqual([{ name: "tidy", reason: `disabled in ${codex}` }]);
    expect(codexView.settings.read).toBe(true);

    // another profile: ours come back on, the user's own stays off
    expect((await box.run("profile", "use", "cleanup", "--agent", "codex,opencode")).status).toBe(
      0,
    );
    expect(codexOff(readFileSync(codex, "utf8"))).toEqual(["legacy", "lint", "pdf"]);
    expect(
      JSON.parse(readFileSync(opencode, "utf8").replace(/\/\/.*\n/, "")).skills.enabled,
    ).toEqual({ legacy: false, lint: false, pdf: false });
    // a profile of every skill takes all of ours back: the user's file is byte for byte theirs
    expect((await box.run("profile", "create", "every", "--skill", "pdf,tidy,lint")).status).toBe(
      0,
    );
    expect((await box.run("profile", "use", "every", "--agent", "codex,opencode")).status).toBe(0);
    expect(readFileSync(codex, "utf8")).toBe(CODEX);
    expect(
      JSON.parse(readFileSync(opencode, "utf8").replace(/\/\/.*\n/, "")).skills.enabled,
    ).toEqual({ legacy: false });
    expect((await box.run("profile", "use", "focus", "--agent", "codex")).status).toBe(0);
    expect(codexOff(readFileSync(codex, "utf8"))).toEqual(["legacy", "tidy"]);
    // rollback puts the switch back as the last write found it, and again redoes that write
    expect((await box.run("rollback", "--agent", "codex", "--json")).status).toBe(0);
    expect(readFileSync(codex, "utf8")).toBe(CODEX);
    expect((await box.run("rollback", "--agent", "codex")).status).toBe(0);
    expect(codexOff(readFileSync(codex, "utf8"))).toEqual(["legacy", "tidy"]);
    const mixed = await box.run("rollback", "pdf", "--agent", "codex");
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toContain("usage_invalid_value");

    // which profile this contributor uses is theirs, not the repository's
    const listed = JSON.parse((await box.run("profile", "list", "--json")).stdout);
    expect(listed.using).toBe("focus");
    expect(listed.profiles.map((one: { name: string }) => one.name)).toEqual([
      "cleanup",
      "every",
      "focus",
    ]);
    expect(readFileSync(join(box.configDir, "profiles-in-use.json"), "utf8")).toContain(box.cwd);
  });

  it("disable --agent turns a package's skills off in that agent's switch alone, and enable takes back only its own entry", async () => {
    const box = changeSandbox();
    const { codex } = settings(box);
    const skill = join(testdir({ "tidy/SKILL.md": skillFile("tidy", "Tidy a folder.") }), "tidy");
    expect((await box.run("install", skill, "--user", "--yes")).status).toBe(0);
    const off = await box.run("disable", "tidy", "--agent", "codex", "--user");
    expect(off.status, off.stderr).toBe(0);
    expect(codexOff(readFileSync(codex, "utf8"))).toEqual(["legacy", "tidy"]);
    // the package itself stays enabled for every other agent
    expect(box.userLock().tidy?.enabled).toBe(true);
    expect(await box.skills()).toContain("tidy");
    expect((await box.run("enable", "tidy", "--agent", "codex", "--user")).status).toBe(0);
    expect(readFileSync(codex, "utf8")).toBe(CODEX);
    // the user's own entry is theirs: enable --agent of a skill they turned off leaves it
    const legacy = join(testdir({ "legacy/SKILL.md": skillFile("legacy", "Old.") }), "legacy");
    expect((await box.run("install", legacy, "--user", "--yes")).status).toBe(0);
    expect((await box.run("enable", "legacy", "--agent", "codex", "--user")).status).toBe(0);
    expect(readFileSync(codex, "utf8")).toBe(CODEX);
    const unknown = await box.run("disable", "nothing", "--agent", "codex", "--user");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("not_installed");
  });

  it("for an agent without a switch, takes away the links Skillshelf made in the user's folders and makes them again", async () => {
    const box = changeSandbox();
    const skills = testdir({
      "pdf/SKILL.md": skillFile("pdf", "Read PDFs."),
      "tidy/SKILL.md": skillFile("tidy", "Tidy a folder."),
    });
    for (const name of ["pdf", "tidy"])
      expect(
        (await box.run("install", join(skills, name), "--user", "--agent", "claude-code", "--yes"))
          .status,
      ).toBe(0);
    const link = (name: string) => join(box.home, ".claude", "skills", name);
    expect(lstatSync(link("tidy")).isSymbolicLink()).toBe(true);
    expect((await box.run("profile", "create", "focus", "--skill", "pdf", "--user")).status).toBe(
      0,
    );
    expect(
      (await box.run("profile", "create", "both", "--skill", "pdf,tidy", "--user")).status,
    ).toBe(0);

    const used = await box.run("profile", "use", "focus", "--agent", "claude-code", "--json");
    expect(used.status, used.stderr).toBe(0);
    const result = JSON.parse(used.stdout);
    expect(result.agents[0].links).toEqual({ unlinked: ["tidy"], relinked: [] });
    expect(result.diagnostics.map((one: { code: string }) => one.code)).toEqual([
      "agent_switch_missing",
    ]);
    expect(lstatSync(link("tidy"), { throwIfNoEntry: false })).toBeUndefined();
    expect(lstatSync(link("pdf")).isSymbolicLink()).toBe(true);
    // the package stays installed; the lock says what is linked now
    expect((await box.run("verify")).status).toBe(0);

    // a folder of the user's where the link would go back: left as it is, the link stays parked
    mkdirSync(link("tidy"));
    writeFileSync(join(link("tidy"), "SKILL.md"), skillFile("tidy", "Their own."));
    const blocked = JSON.parse(
      (await box.run("profile", "use", "both", "--agent", "claude-code", "--json")).stdout,
    );
    expect(blocked.agents[0].links).toEqual({ unlinked: [], relinked: [] });
    expect(blocked.diagnostics.map((one: { code: string }) => one.code)).toContain("link_conflict");
    expect(readFileSync(join(link("tidy"), "SKILL.md"), "utf8")).toContain("Their own.");
    rmSync(link("tidy"), { recursive: true });
    const back = JSON.parse(
      (await box.run("profile", "use", "both", "--agent", "claude-code", "--json")).stdout,
    );
    expect(back.agents[0].links).toEqual({ unlinked: [], relinked: ["tidy"] });
    expect(lstatSync(link("tidy")).isSymbolicLink()).toBe(true);
    expect((await box.run("verify")).status).toBe(0);
  });

  it("says when an agent's listing budget would cut a skill of the profile, and refuses what it cannot read", async () => {
    const names = Array.from({ length: 60 }, (_, index) => `skill-${index}`);
    const box = projectWith(
      names,
      (name) => `Use for ${name}: ${"a careful description ".repeat(8)}`,
    );
    const { codex } = settings(box);
    expect((await box.run("profile", "create", "all", "--skill", names.join(","))).status).toBe(0);
    const shown = await box.run("profile", "show", "all", "--json");
    expect(shown.status).toBe(1);
    const codexFit = JSON.parse(shown.stdout).agents.find(
      (agent: { agent: string }) => agent.agent === "codex",
    );
    expect(codexFit.budget.fits).toBe(false);
    expect(codexFit.budget.shortened.length + codexFit.budget.dropped.length).toBeGreaterThan(0);
    expect(
      (await box.run("profile", "create", "few", "--skill", "skill-1,skill-2,gone")).status,
    ).toBe(0);
    const few = JSON.parse((await box.run("profile", "show", "few", "--json")).stdout);
    expect(few.ok).toBe(true);
    expect(few.agents.find((agent: { agent: string }) => agent.agent === "codex").missing).toEqual([
      "gone",
    ]);

    // a settings file that does not parse is left as it is
    writeFileSync(codex, "this is = not [ toml\n");
    const refused = await box.run("profile", "use", "few", "--agent", "codex");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("agent_switch_unreadable");
    expect(readFileSync(codex, "utf8")).toBe("this is = not [ toml\n");
    const unknown = await box.run("profile", "use", "nothing", "--agent", "codex");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("profile_unknown");
  });
});
