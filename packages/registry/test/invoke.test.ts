import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { parseSkillContent } from "@skillshelf/catalog-view";
import { createFilesystemProvider, createSkillRegistry } from "@skillshelf/registry";
import { createSkillCache } from "@skillshelf/skills-loader";
import { skillFile, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

function setup() {
  const environment = testEnvironment({
    project: {
      ".skillshelf/skills/deploy/SKILL.md": skillFile("deploy", "Deploy.", "", "Deploy steps.\n"),
      ".skillshelf/skills/watchdog/SKILL.md": skillFile(
        "watchdog",
        "Started by the model alone.",
        "user-invocable: false\n",
      ),
    },
  });
  const registry = createSkillRegistry();
  registry.registerProvider(
    createFilesystemProvider({
      load: { home: environment.home, configDir: environment.configDir, env: {} },
      cache: createSkillCache(),
    }),
  );
  const deploy = join(environment.cwd, ".skillshelf", "skills", "deploy", "SKILL.md");
  return { registry, cwd: environment.cwd, deploy };
}

describe("invoking a skill through the registry", () => {
  it("gives the winner's body as instructions, with the provider and path it came from", async () => {
    const { registry, cwd, deploy } = setup();
    const result = await registry.invoke("deploy", { cwd, args: " to staging " });
    expect(result).toMatchObject({
      ok: true,
      invocation: {
        kind: "skill-invocation",
        name: "deploy",
        form: "instructions",
        args: "to staging",
        provenance: { provider: "filesystem", source: "skillshelf", path: deploy },
      },
    });
    if (!result.ok) return;
    const [block = ""] = result.invocation.content.split("\n\nARGUMENTS: ");
    expect(parseSkillContent(block)).toEqual({ name: "deploy", content: "Deploy steps.\n" });
    expect(result.invocation.content.endsWith("\n\nARGUMENTS: to staging")).toBe(true);
  });

  it.each([
    ["watchdog", "skill_not_user_invocable"],
    ["nowhere", "skill_unavailable"],
    ["Not A Name", "skill_unavailable"],
  ])("refuses %s with %s", async (name, code) => {
    const { registry, cwd } = setup();
    expect(await registry.invoke(name, { cwd })).toMatchObject({
      ok: false,
      refusal: { code, details: { name } },
    });
  });

  it("refuses a file that changed after the catalog listed it, then runs it once listed again", async () => {
    const { registry, cwd, deploy } = setup();
    await registry.list({ cwd });
    appendFileSync(deploy, "A new step.\n");
    expect(await registry.invoke("deploy", { cwd })).toMatchObject({
      ok: false,
      refusal: { code: "skill_changed" },
    });
    const again = await registry.invoke("deploy", { cwd });
    expect(again.ok && again.invocation.content).toContain("A new step.");
  });

  it("refuses when another skill answers the name than the one the host listed", async () => {
    const registry = createSkillRegistry();
    const first = registry.register({ name: "triage", description: "First.", content: "One." });
    const [listed] = await registry.list();
    first();
    registry.register({ name: "triage", description: "Second.", content: "Two." });
    expect(await registry.invoke("triage", { listed })).toMatchObject({
      ok: false,
      refusal: { code: "skill_changed" },
    });
    expect(await registry.invoke("triage")).toMatchObject({ ok: true });
  });
});
