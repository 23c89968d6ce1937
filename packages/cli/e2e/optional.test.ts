import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitEnv, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { withStdioSkills } from "../test/_mcp.js";
import { runCliAsync } from "../test/_run.js";
import { changeSandbox, codesOf } from "../test/_sandbox.js";

/** The user's own Codex settings, with a skill they turned off themselves. */
const CODEX = `# mine
model = "o3"

[[skills.config]]
name = "legacy"
enabled = false
`;

function writeSkill(folder: string, name: string): void {
  mkdirSync(join(folder, name), { recursive: true });
  writeFileSync(join(folder, name, "SKILL.md"), skillFile(name, `Use for ${name} work.`));
}

/** A contributor's own home with Codex's settings: its env, and where the settings are. */
function contributor(): { env: Record<string, string>; codex: string } {
  const home = testdir();
  mkdirSync(join(home, ".codex"));
  const codex = join(home, ".codex", "config.toml");
  writeFileSync(codex, CODEX);
  return { env: { ...gitEnv(home), SKILLSHELF_HOME: join(home, ".skillshelf") }, codex };
}

/** The names a Codex config turns off, in order. */
const codexOff = (path: string) =>
  [
    ...readFileSync(path, "utf8").matchAll(
      /\[\[skills\.config\]\][^[]*?name = "([^"]+)"\s*\nenabled = false/g,
    ),
  ].map((match) => match[1]);

describe("optional skills, chosen per contributor (issue 60, item 1)", () => {
  it("reach a contributor's agents, MCP clients and nothing committed only when their profile names them", async () => {
    const box = changeSandbox();
    const project = box.cwd;
    // skills the repository commits: two where Codex reads them, two in the project library
    writeSkill(join(project, ".agents", "skills"), "pdf");
    writeSkill(join(project, ".agents", "skills"), "tidy");
    writeSkill(join(project, ".skillshelf", "skills"), "notes");
    writeSkill(join(project, ".skillshelf", "skills"), "report");
    const ada = contributor();
    const run = (env: Record<string, string>, ...args: string[]) =>
      runCliAsync(args, { cwd: project, env });

    const marked = await run(ada.env, "profile", "optional", "--skill", "tidy,notes", "--json");
    expect(marked.status, marked.stderr).toBe(0);
    expect(JSON.parse(marked.stdout)).toMatchObject({
      optional: ["notes", "tidy"],
      leftOut: ["notes", "tidy"],
    });
    // Codex sees tidy here: its own switch turns it off, the user's entry kept
    expect(codexOff(ada.codex)).toEqual(["legacy", "tidy"]);
    // committed: the project's profiles.json says so for everyone
    expect(
      JSON.parse(readFileSync(join(project, ".skillshelf", "profiles.json"), "utf8")).optional,
    ).toEqual(["notes", "tidy"]);

    // a project link would give it to every contributor: refused, and so is marking a linked one
    const linked = await run(
      ada.env,
      "link",
      "notes",
      "--agent",
      "claude-code",
      "--project",
      "--yes",
      "--json",
    );
    expect(linked.status).toBe(1);
    expect(codesOf(linked)).toContain("profile_optional_linked");
    expect(
      (await run(ada.env, "link", "report", "--agent", "claude-code", "--project", "--yes")).status,
    ).toBe(0);
    const refused = await run(ada.env, "profile", "optional", "--skill", "report");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("profile_optional_linked");

    // nothing committed lists it, and an MCP client is not given it
    const agentsMd = await run(ada.env, "agents-md", "--json");
    expect(agentsMd.status, agentsMd.stderr).toBe(0);
    const written = readFileSync(join(project, "AGENTS.md"), "utf8");
    expect(written).toContain("<name>report</name>");
    expect(written).not.toContain("<name>notes</name>");
    const served = () =>
      withStdioSkills([], { cwd: project, env: ada.env }, async (mcp) =>
        (await mcp.listAll()).skills.map((one) => String(one.frontmatter.name)).sort(),
      );
    expect(await served()).toEqual(["report"]);

    // a profile naming them: on in Codex's switch (the user's file as it was), served
    expect(
      (await run(ada.env, "profile", "create", "mine", "--skill", "pdf,tidy,notes,report")).status,
    ).toBe(0);
    expect((await run(ada.env, "profile", "use", "mine", "--agent", "codex")).status).toBe(0);
    expect(readFileSync(ada.codex, "utf8")).toBe(CODEX);
    expect(await served()).toEqual(["notes", "report"]);

    // a teammate's first install: the optional ones are off for them until they choose
    const bo = contributor();
    const restored = await run(bo.env, "install", "--yes", "--json");
    expect(restored.status, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).switches).toEqual([
      expect.objectContaining({ agent: "codex", disabled: ["tidy"], changed: true }),
    ]);
    expect(codexOff(bo.codex)).toEqual(["legacy", "tidy"]);
    expect(codexOff(ada.codex)).toEqual(["legacy"]);

    // a settings file that does not parse is left as it is, said, and the install still done
    const cy = contributor();
    writeFileSync(cy.codex, "model = [unclosed\n");
    const kept = await run(cy.env, "install", "--yes", "--json");
    expect(kept.status, kept.stderr).toBe(0);
    expect(codesOf(kept)).toContain("agent_switch_unreadable");
    expect(readFileSync(cy.codex, "utf8")).toBe("model = [unclosed\n");
  }, 120_000);
});
