import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createResources } from "@skillshelf/resources";
import { isModelVisible } from "@skillshelf/skills-loader";
import { discoverLibrary } from "@skillshelf/sources";
import { packagesDir } from "@skillshelf/store";
import { skillFile, testEnvironment, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { disable, installTree, resourcesEnvironment, toolkitTree } from "./_install.js";

function setup() {
  const environment = resourcesEnvironment();
  const resources = createResources({
    environment: { home: environment.home, configDir: environment.configDir, env: {} },
  });
  return { environment, resources, cwd: environment.cwd };
}

const names = (result: { items: readonly { name: string }[] }) =>
  result.items.map((item) => item.name);

describe("an installed package through resources", () => {
  it("appears in every kind, with its id in the source", () => {
    const { environment, resources, cwd } = setup();
    installTree(environment, "user", toolkitTree("kit"));
    const pass = resources.read(cwd);
    expect(names(pass.load("skill"))).toEqual(["kit-skill"]);
    expect(names(pass.load("prompt"))).toEqual(["kit-prompt"]);
    expect(names(pass.load("agent"))).toEqual(["kit-agent"]);
    expect(names(pass.load("fleet"))).toEqual(["kit-fleet"]);
    for (const item of [
      pass.load("skill").items[0],
      pass.load("prompt").items[0],
      pass.load("agent").items[0],
      pass.load("fleet").items[0],
    ])
      expect(item).toMatchObject({ source: "package:kit", scope: "package", trusted: true });
    const [skill] = pass.load("skill").items;
    // ownership travels as a field, never parsed back out of the origin
    expect(skill?.owner).toEqual({ scope: "user", id: "kit" });
    expect(skill === undefined ? undefined : pass.owner(skill)?.id).toBe("kit");
  });

  it("leaves out a disabled copy, a damaged copy and a shadowed one", () => {
    const { environment, resources, cwd } = setup();
    installTree(environment, "user", toolkitTree("off"));
    disable(environment, "user", "off");
    installTree(environment, "user", toolkitTree("drift"));
    appendFileSync(
      join(packagesDir(environment, "user"), "drift", "skills/drift-skill/SKILL.md"),
      "edited\n",
    );
    // the project copy of "both" wins; disabled, it still hides the user copy
    installTree(environment, "user", toolkitTree("both"));
    installTree(environment, "project", toolkitTree("both"));
    disable(environment, "project", "both");
    const skills = resources.skills(cwd);
    expect(names(skills)).toEqual([]);
    expect(skills.diagnostics.map((d) => d.code)).toContain("content_drift");
  });

  it("keeps a foreign package from the model unless trustImports, for every kind alike", () => {
    const environment = resourcesEnvironment();
    const claude = {
      ".claude-plugin/plugin.json": JSON.stringify({ name: "imported", version: "1.0.0" }),
      "skills/imp-skill/SKILL.md": skillFile("imp-skill", "Imported."),
      "commands/imp-prompt.md": "Do $1.\n",
      "agents/imp-agent.md": "---\nname: imp-agent\ndescription: Imported agent.\n---\nHelp.\n",
    };
    installTree(environment, "user", claude);
    const base = { home: environment.home, configDir: environment.configDir, env: {} };
    for (const trustImports of [false, true]) {
      const pass = createResources({ environment: base, trustImports }).read(environment.cwd);
      for (const item of [
        pass.load("skill").items[0],
        pass.load("prompt").items[0],
        pass.load("agent").items[0],
      ])
        expect(item?.trusted, String(trustImports)).toBe(trustImports);
    }
    const refused = createResources({ environment: base }).expandPromptTemplate(
      "/imp-prompt x",
      environment.cwd,
    );
    expect(refused).toMatchObject({ kind: "refused", code: "prompt_untrusted" });
  });
});

describe("broken packages", () => {
  it("never hide the loose libraries nor crash a read; each yields its finding", () => {
    const { environment, resources, cwd } = setup();
    installTree(environment, "user", toolkitTree("kit"));
    installTree(environment, "project", toolkitTree("other"));
    writeTree(environment.configDir, {
      "skills/loose/SKILL.md": skillFile("loose", "Still here."),
    });
    writeFileSync(join(packagesDir(environment, "user"), "state.json"), "{ not json");
    writeFileSync(join(packagesDir(environment, "project"), "other", "plugin.json"), "[]");
    const skills = resources.skills(cwd);
    expect(names(skills)).toEqual(["loose"]);
    expect(skills.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "state_invalid",
        path: join(packagesDir(environment, "user"), "state.json"),
        hint: expect.any(String),
      }),
    );
    expect(skills.diagnostics.map((d) => d.code)).toContain("field_invalid");
  });
});

describe("package references", () => {
  it("expand the plugin root and declared components in package-owned bodies", () => {
    const { environment, resources, cwd } = setup();
    installTree(
      environment,
      "user",
      toolkitTree("kit", {
        "skills/kit-skill/SKILL.md": skillFile(
          "kit-skill",
          "The kit skill.",
          "",
          "Lint with ${component:script:lint}.\n",
        ),
      }),
    );
    const copy = join(packagesDir(environment, "user"), "kit");
    const pass = resources.read(cwd);
    expect(pass.load("skill").items[0]?.body).toBe(`Lint with ${join(copy, "tools/lint.sh")}.\n`);
    expect(pass.load("agent").items[0]?.persona).toBe(
      `Run ${join(copy, "tools/lint.sh")} first.\n`,
    );
    expect(resources.expandPromptTemplate("/kit-prompt app.ts", cwd)).toEqual({
      kind: "expanded",
      name: "kit-prompt",
      text: `Review app.ts with ${copy}/notes.md.\n`,
    });
  });

  it("make a resource naming an unknown component unavailable, never half-expanded (issue 24, item 2)", () => {
    const { environment, resources, cwd } = setup();
    installTree(
      environment,
      "user",
      toolkitTree("kit", {
        "prompts/kit-prompt.md": "Use ${pluginRoot} and ${component:script:missing}.\n",
        "skills/kit-skill/SKILL.md": skillFile(
          "kit-skill",
          "The kit skill.",
          "",
          "Run ${component:script:gone}.\n",
        ),
        "agents/kit-agent.md":
          "---\nname: kit-agent\ndescription: The kit agent.\n---\nRun ${component:script:gone}.\n",
      }),
    );
    const copy = join(packagesDir(environment, "user"), "kit");
    const prompts = resources.prompts(cwd);
    // listed, with the reason, and never expanded
    expect(prompts.items.map((template) => [template.name, template.unavailable])).toEqual([
      ["kit-prompt", "${component:script:missing} names a component package kit does not declare"],
    ]);
    expect(prompts.items[0]?.content).toBe("");
    expect(prompts.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "package_reference_unknown",
        path: join(copy, "prompts/kit-prompt.md"),
      }),
    );
    expect(resources.expandPromptTemplate("/kit-prompt", cwd)).toMatchObject({
      kind: "refused",
      code: "prompt_unavailable",
    });
    const pass = resources.read(cwd);
    const skill = pass.load("skill").items.find((item) => item.name === "kit-skill");
    expect(skill?.unavailable).toContain("${component:script:gone}");
    expect(skill === undefined ? undefined : isModelVisible(skill)).toBe(false);
    expect(
      pass.load("agent").items.map((recipe) => [recipe.name, recipe.unavailable !== undefined]),
    ).toEqual([["kit-agent", true]]);
  });

  it("are left alone in loose resources", () => {
    const { environment, resources, cwd } = setup();
    writeTree(cwd, { ".skillshelf/prompts/loose.md": "Keep ${pluginRoot} as written.\n" });
    void environment;
    expect(resources.expandPromptTemplate("/loose", cwd)).toMatchObject({
      text: "Keep ${pluginRoot} as written.\n",
    });
  });
});

describe("reading", () => {
  it("short-circuits a message that names no command: nothing is read", () => {
    const { resources, cwd } = setup();
    expect(resources.parsePendingSkillRequests("just a question", cwd)).toEqual({
      text: "just a question",
      requests: [],
    });
    expect(resources.expandPromptTemplate("no slash here", cwd)).toBeUndefined();
    expect(resources.stats()).toEqual({ passes: 0, treesDigested: 0 });
  });

  it("digests each installed tree once per pass, whatever kinds it reads", () => {
    const { environment, resources, cwd } = setup();
    for (const id of ["one", "two", "three"]) installTree(environment, "user", toolkitTree(id));
    const pass = resources.read(cwd);
    pass.load("skill");
    pass.load("prompt");
    pass.load("agent");
    pass.load("fleet");
    pass.load("skill");
    expect(resources.stats()).toEqual({ passes: 1, treesDigested: 3 });
  });

  it("keeps what a pass read of the scopes: a copy whose stamps hold is not looked up again", () => {
    const { environment, resources, cwd } = setup();
    installTree(environment, "user", toolkitTree("kit"));
    expect(names(resources.skills(cwd))).toEqual(["kit-skill"]);
    // what the scope remembers for other processes is forged: this object knows the copy already
    const remembered = join(packagesDir(environment, "user"), ".remembered.json");
    const forged = readFileSync(remembered, "utf8").replace(
      /"digest":"[0-9a-f]{64}"/,
      `"digest":"${"0".repeat(64)}"`,
    );
    writeFileSync(remembered, forged);
    expect(resources.read(cwd).diagnostics.map((one) => one.code)).not.toContain("content_drift");
    expect(names(resources.skills(cwd))).toEqual(["kit-skill"]);
    // a fresh object takes the forged file at its word: the stamps hold
    const fresh = createResources({
      environment: { home: environment.home, configDir: environment.configDir, env: {} },
    });
    expect(fresh.read(cwd).diagnostics.map((one) => one.code)).toContain("content_drift");
  });

  it("lists templates from the last verified snapshot, but expands only against a fresh one", () => {
    const { environment, resources, cwd } = setup();
    installTree(environment, "user", toolkitTree("kit"));
    expect(names(resources.prompts(cwd))).toEqual(["kit-prompt"]);
    writeFileSync(
      join(packagesDir(environment, "user"), "kit", "prompts/kit-prompt.md"),
      "Changed.\n",
    );
    expect(names(resources.promptsForDisplay(cwd))).toEqual(["kit-prompt"]);
    expect(resources.stats().treesDigested).toBe(1);
    expect(resources.expandPromptTemplate("/kit-prompt", cwd)).toMatchObject({
      kind: "refused",
      code: "prompt_unknown",
    });
    resources.reload();
    expect(names(resources.promptsForDisplay(cwd))).toEqual([]);
  });

  it("gives two objects nothing in common", () => {
    const { environment, cwd } = setup();
    const base = { home: environment.home, configDir: environment.configDir, env: {} };
    const first = createResources({ environment: base });
    const second = createResources({ environment: base });
    installTree(environment, "user", toolkitTree("kit"));
    first.skills(cwd);
    expect(first.stats().passes).toBe(1);
    expect(second.stats()).toEqual({ passes: 0, treesDigested: 0 });
    first.reload();
    expect(names(second.promptsForDisplay(cwd))).toEqual(["kit-prompt"]);
  });

  it("finds the project from a folder three levels down", () => {
    const { environment, resources, cwd } = setup();
    installTree(environment, "project", toolkitTree("kit"));
    const deep = join(cwd, "src", "a", "b");
    mkdirSync(deep, { recursive: true });
    expect(resources.read(deep).environment.project).toBe(cwd);
    expect(names(resources.skills(deep))).toEqual(["kit-skill"]);
  });
});

describe("parsePendingSkillRequests", () => {
  it("resolves each requested skill: found, unknown, not model-visible, disabled", () => {
    const { environment, resources, cwd } = setup();
    installTree(environment, "user", toolkitTree("kit"));
    installTree(environment, "user", toolkitTree("off"));
    disable(environment, "user", "off");
    writeTree(cwd, {
      ".claude/skills/theirs/SKILL.md": skillFile("theirs", "Another agent's."),
      ".skillshelf/skills/mine/SKILL.md": skillFile(
        "mine",
        "Operator only.",
        "disable-model-invocation: true\n",
      ),
    });
    const reply = resources.parsePendingSkillRequests(
      "Suggested skills: /skill kit-skill, /skill nope, /skill theirs, /skill off-skill, /skill mine\nThen continue.",
      cwd,
    );
    expect(reply.text).toBe("Then continue.");
    expect(reply.requests.map(({ name, reason, via }) => ({ name, reason, via }))).toEqual([
      { name: "kit-skill", reason: "found", via: "suggestion" },
      { name: "nope", reason: "unknown", via: "suggestion" },
      { name: "theirs", reason: "not-model-visible", via: "suggestion" },
      { name: "off-skill", reason: "disabled", via: "suggestion" },
      { name: "mine", reason: "not-model-visible", via: "suggestion" },
    ]);
    expect(reply.requests[0]?.skill?.source).toBe("package:kit");
    // the operator may run a skill the model may not invoke
    expect(resources.parsePendingSkillRequests("/skill mine with args", cwd)).toMatchObject({
      text: "with args",
      requests: [{ name: "mine", reason: "found", via: "command" }],
    });
  });

  it("offers nothing to install unless the host says what indexes offer (issue 57, item 2)", () => {
    const { environment, resources, cwd } = setup();
    writeTree(environment.configDir, {
      "library.yaml": `- kind: skill\n  name: pdf-forms\n  description: Fill PDF forms.\n  sourceUrl: https://example.com/pdf-forms.tar.gz\n  version: 1.0.0\n  sha256: ${"a".repeat(64)}\n`,
    });
    expect(resources.parsePendingSkillRequests("/skill pdf-forms", cwd).requests).toEqual([
      { name: "pdf-forms", skill: undefined, reason: "unknown", via: "command" },
    ]);
  });

  it("says where a skill nothing installed has can be installed from (issue 24, item 6)", () => {
    const { environment, cwd } = setup();
    const resources = createResources({
      environment: { home: environment.home, configDir: environment.configDir, env: {} },
      offers: (seen) => discoverLibrary(seen).rows,
    });
    // the user scope's own index offers a skill package and a plugin providing another skill
    writeTree(environment.configDir, {
      "library.yaml": [
        "- kind: skill",
        "  name: pdf-forms",
        "  description: Fill PDF forms.",
        "  sourceUrl: https://example.com/pdf-forms.tar.gz",
        "  version: 1.0.0",
        `  sha256: ${"a".repeat(64)}`,
        "- kind: plugin",
        "  name: office",
        "  description: Office documents.",
        "  sourceUrl: https://example.com/office.tar.gz",
        "  version: 1.0.0",
        `  sha256: ${"b".repeat(64)}`,
        "  provides: [{kind: skill, name: xlsx}]",
        "",
      ].join("\n"),
    });
    const reply = resources.parsePendingSkillRequests("/skill pdf-forms the form", cwd);
    expect(reply.requests).toEqual([
      {
        name: "pdf-forms",
        skill: undefined,
        reason: "installable",
        via: "command",
        offer: {
          ref: "skill:pdf-forms",
          description: "Fill PDF forms.",
          sourceUrl: "https://example.com/pdf-forms.tar.gz",
          catalog: join(environment.configDir, "library.yaml"),
        },
      },
    ]);
    const suggested = resources.parsePendingSkillRequests(
      "Suggested skill: /skill xlsx, /skill gone",
      cwd,
    );
    expect(suggested.requests.map(({ name, reason, offer }) => [name, reason, offer?.ref])).toEqual(
      [
        ["xlsx", "installable", "plugin:office"],
        ["gone", "unknown", undefined],
      ],
    );
  });
});

describe("a host's own folders (issue 30, items 1 and 2)", () => {
  it("are trusted with host: a /skill request is found and a command template expands", () => {
    const { home, cwd } = testEnvironment({
      project: {
        ".claude/skills/deploy/SKILL.md": skillFile("deploy", "Deploy the app."),
        ".claude/commands/review.md": "Review $1 carefully.\n",
      },
    });
    const as = (host?: string) =>
      createResources({ environment: { home, env: {}, ...(host === undefined ? {} : { host }) } });
    const stranger = as();
    expect(stranger.parsePendingSkillRequests("/skill deploy", cwd).requests[0]?.reason).toBe(
      "not-model-visible",
    );
    expect(stranger.expandPromptTemplate("/review app.ts", cwd)).toMatchObject({
      kind: "refused",
      code: "prompt_untrusted",
    });
    const claude = as("claude-code");
    expect(claude.parsePendingSkillRequests("/skill deploy", cwd).requests[0]?.reason).toBe(
      "found",
    );
    expect(claude.expandPromptTemplate("/review app.ts", cwd)).toMatchObject({
      kind: "expanded",
      text: "Review app.ts carefully.\n",
    });
  });

  it("can be given as roots instead of the default ones, installed packages still read", () => {
    const { home, cwd } = testEnvironment({
      project: { "harness/skills/lint/SKILL.md": skillFile("lint", "Lint the code.") },
    });
    const resources = createResources({
      environment: { home, env: {} },
      roots: {
        skill: [
          {
            path: join(cwd, "harness", "skills"),
            scope: "project",
            source: "harness",
            origin: "harness",
            precedence: 40,
            trust: "trusted",
            containment: cwd,
          },
        ],
      },
    });
    expect(resources.skills(cwd).items.map((skill) => [skill.name, isModelVisible(skill)])).toEqual(
      [["lint", true]],
    );
  });
});
