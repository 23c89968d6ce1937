import { appendFileSync, cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseSkillContent } from "@skillshelf/catalog-view";
import { createResources } from "@skillshelf/resources";
import { CORPUS_DIR, skillFile, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

// a real skill of the corpus that its authors mark user-invocable
const DISCORD_ACCESS =
  "skills/anthropics-claude-plugins-official/external_plugins/discord/skills/access";

function setup() {
  const environment = testEnvironment({
    project: {
      ".skillshelf/skills/model-only/SKILL.md": skillFile(
        "model-only",
        "Started by the model alone.",
        "user-invocable: false\n",
      ),
      ".claude/skills/theirs/SKILL.md": skillFile("theirs", "Another agent's, not imported."),
    },
  });
  const library = join(environment.cwd, ".skillshelf", "skills");
  mkdirSync(library, { recursive: true });
  cpSync(join(CORPUS_DIR, DISCORD_ACCESS), join(library, "access"), { recursive: true });
  const resources = createResources({
    environment: { home: environment.home, configDir: environment.configDir, env: {} },
  });
  return { resources, cwd: environment.cwd, skillPath: join(library, "access", "SKILL.md") };
}

describe("invoking a skill by name through resources", () => {
  it("gives a user-invocable skill's rendered body as instructions with its provenance", () => {
    const { resources, cwd, skillPath } = setup();
    const result = resources.invokeSkill("/skill access pair 4821", cwd);
    expect(result?.ok).toBe(true);
    if (result?.ok !== true) return;
    const { invocation } = result;
    expect(invocation).toMatchObject({
      kind: "skill-invocation",
      name: "access",
      form: "instructions",
      args: "pair 4821",
      provenance: { source: "skillshelf", scope: "project", path: skillPath },
    });
    const [block = "", args] = invocation.content.split("\n\nARGUMENTS: ");
    expect(args).toBe("pair 4821");
    // the body reaches the model as written
    expect(parseSkillContent(block)?.content).toContain("# /discord:access");
  });

  it.each([
    ["/skill model-only", "skill_not_user_invocable"],
    ["/skill theirs", "skill_unavailable"],
    ["/skill nowhere", "skill_unavailable"],
  ])("refuses %s with %s", (text, code) => {
    const { resources, cwd } = setup();
    const result = resources.invokeSkill(text, cwd);
    expect(result).toMatchObject({ ok: false, refusal: { code, severity: "error" } });
  });

  it("refuses a skill that changed since the host listed it", () => {
    const { resources, cwd, skillPath } = setup();
    const listed = resources.skills(cwd).items.find((skill) => skill.name === "access");
    appendFileSync(skillPath, "\nA step added after the listing.\n");
    expect(resources.invokeSkill("/skill access", cwd, { listed })).toMatchObject({
      ok: false,
      refusal: { code: "skill_changed", details: { path: skillPath } },
    });
    // listed again, it runs with the new body
    const relisted = resources.skills(cwd).items.find((skill) => skill.name === "access");
    const again = resources.invokeSkill("/skill access", cwd, { listed: relisted });
    expect(again?.ok === true && again.invocation.content).toContain("A step added");
  });

  it("reads nothing for a message that invokes no skill", () => {
    const { resources, cwd } = setup();
    expect(resources.invokeSkill("please review this", cwd)).toBeUndefined();
    expect(resources.stats().passes).toBe(0);
  });
});
