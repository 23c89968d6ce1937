import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createFilesystemProvider,
  createSkillRegistry,
  type RegistryChange,
} from "@skillshelf/registry";
import { createSkillCache } from "@skillshelf/skills-loader";
import { skillFile, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("the filesystem provider", () => {
  const setup = () => {
    const environment = testEnvironment({
      home: {
        ".config/skillshelf/skills/deploy/SKILL.md": skillFile(
          "deploy",
          "User deploy.",
          "",
          "Deploy steps.\n",
        ),
        ".config/skillshelf/skills/manual/SKILL.md": skillFile(
          "manual",
          "Operator only.",
          "disable-model-invocation: true\n",
        ),
        ".config/skillshelf/skills/Bad Name/SKILL.md": skillFile("Bad Name", "Not kebab."),
        ".claude/skills/claude-only/SKILL.md": skillFile("claude-only", "Discovery-only."),
      },
      project: {
        ".skillshelf/skills/review/SKILL.md": skillFile(
          "review",
          "Project review.",
          "",
          "Review steps.\n",
        ),
      },
    });
    const cache = createSkillCache();
    const registry = createSkillRegistry();
    registry.registerProvider(
      createFilesystemProvider({
        load: { home: environment.home, configDir: environment.configDir, env: {} },
        cache,
      }),
    );
    return { environment, cache, registry };
  };

  it("reports what the loader found wrong with the read (issue 57, item 6)", async () => {
    const { environment, registry } = setup();
    writeFileSync(
      join(environment.configDir, "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: [unclosed\n---\nBody.\n",
    );
    const snapshot = await registry.snapshot({ cwd: environment.cwd });
    expect(snapshot.complete).toBe(true);
    expect(
      snapshot.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path]),
    ).toContainEqual([
      "frontmatter_invalid",
      join(environment.configDir, "skills", "deploy", "SKILL.md"),
    ]);
  });

  it("serves a host's own folders when told who the host is (issue 30, item 2)", async () => {
    const { environment } = setup();
    const registry = createSkillRegistry();
    registry.registerProvider(
      createFilesystemProvider({
        load: {
          home: environment.home,
          configDir: environment.configDir,
          env: {},
          host: "claude-code",
        },
      }),
    );
    const names = (await registry.list({ cwd: environment.cwd })).map((skill) => skill.name);
    expect(names).toContain("claude-only");
  });

  it("serves trusted, kebab-named skills ranked by scope, with their folders as resource bases", async () => {
    const { environment, registry } = setup();
    const skills = await registry.list({ cwd: environment.cwd });
    expect(
      skills.map((skill) => [
        skill.name,
        skill.source,
        skill.invocation.modelInvocable,
        skill.provider,
      ]),
    ).toEqual([
      ["deploy", "skillshelf", true, "filesystem"],
      ["manual", "skillshelf", false, "filesystem"],
      ["review", "skillshelf", true, "filesystem"],
    ]);
    expect(skills[0]?.resourceBase).toEqual({
      kind: "directory",
      path: join(environment.home, ".config/skillshelf/skills/deploy"),
    });
  });

  it("loads bodies on demand, and a project skill outranks a runtime one, which outranks a user one", async () => {
    const { environment, registry } = setup();
    registry.register({ name: "review", description: "Runtime review.", content: "Runtime body." });
    registry.register({ name: "deploy", description: "Runtime deploy.", content: "Runtime body." });
    expect(await registry.get("review", { cwd: environment.cwd })).toMatchObject({
      provider: "filesystem",
      content: "Review steps.\n",
    });
    expect(await registry.get("deploy", { cwd: environment.cwd })).toMatchObject({
      provider: "runtime",
      content: "Runtime body.",
    });
  });

  it("reads no file on a repeated list, and drops a changed skill, invalidating the catalog", async () => {
    const { environment, cache, registry } = setup();
    const changes: RegistryChange[] = [];
    registry.onChange((change) => {
      changes.push(change);
    });
    await registry.list({ cwd: environment.cwd });
    const misses = cache.stats().misses;
    await registry.list({ cwd: "/elsewhere" });
    await registry.list({ cwd: environment.cwd });
    expect(cache.stats().misses).toBe(misses);
    writeFileSync(
      join(environment.cwd, ".skillshelf/skills/review/SKILL.md"),
      skillFile("review", "Edited.", "", "New steps.\n"),
    );
    expect(await registry.get("review", { cwd: environment.cwd })).toBeUndefined();
    expect(changes.map((change) => change.type)).toEqual(["invalidated"]);
    expect(await registry.get("review", { cwd: environment.cwd })).toMatchObject({
      description: "Edited.",
      content: "New steps.\n",
    });
  });
});
