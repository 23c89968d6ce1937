import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gitRepo, link, skillFile, type Tree, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

// Collections as authors lay them out (issue 25, items 1 and 2), installed through the built bin
// from real git repositories with real symlinks.

interface Installed {
  readonly status: number;
  readonly steps: {
    id: string;
    ref: string;
    refusal?: { code: string; details?: Record<string, unknown> };
  }[];
  readonly diagnostics: { code: string; path?: string }[];
  /** The project lock's packages by id: their source. */
  readonly locked: Record<string, { source: { path?: string } }>;
}

async function install(
  box: ReturnType<typeof changeSandbox>,
  source: string,
  ...options: string[]
): Promise<Installed> {
  const run = await box.run("install", source, "--project", "--yes", "--json", ...options);
  expect(run.stderr).not.toContain("internal error");
  const result = JSON.parse(run.stdout) as {
    plan: { steps: Installed["steps"]; diagnostics: Installed["diagnostics"] };
  };
  const lock = join(box.cwd, ".skillshelf", "lock.json");
  return {
    status: run.status ?? -1,
    steps: result.plan.steps,
    diagnostics: result.plan.diagnostics,
    locked: existsSync(lock) ? JSON.parse(readFileSync(lock, "utf8")).packages : {},
  };
}

const skill = (name: string): string => skillFile(name, `Use for ${name}.`);
/** A skill folder outside any repository, for a link to lead to. */
const outsideSkill = (): string => join(testdir({ "escape/SKILL.md": skill("escape") }), "escape");
const repoUrl = (tree: Tree): string => pathToFileURL(gitRepo([{ tree }]).path).href;
const refusals = (result: Installed) =>
  result.steps
    .filter((step) => step.refusal !== undefined)
    .map((step) => [step.ref, step.refusal?.code]);

describe("a repository's skills, wherever its authors keep them", () => {
  it("installs skill folders that sit directly at the root", async () => {
    const box = changeSandbox();
    const tree: Record<string, Tree[string]> = {
      "README.md": "# skills\n",
      "docs/guide.md": "text\n",
    };
    for (const name of ["alpha", "beta", "gamma"]) tree[`${name}/SKILL.md`] = skill(name);
    const result = await install(box, repoUrl(tree), "--skill", "*");
    expect(result.status).toBe(0);
    expect(Object.keys(result.locked).sort()).toEqual(["alpha", "beta", "gamma"]);
    expect(result.locked.beta?.source.path).toBe("beta");
  });

  it("installs skills four category folders deep", async () => {
    const box = changeSandbox();
    const result = await install(
      box,
      repoUrl({
        // named as a title, as many in that repository are: installed by its folder's name
        "cli-tool/components/skills/data/csv-tools/SKILL.md": skill("CSV Tools"),
        "cli-tool/components/skills/data/sql/query/SKILL.md": skill("query"),
        "cli-tool/components/skills/web/fetch/SKILL.md": skill("fetch"),
        // a name every function answers to, none of the state's or lock's tables does
        "cli-tool/components/skills/web/prototype/SKILL.md": skill("prototype"),
        // a skill's own folders are not searched for more skills
        "cli-tool/components/skills/web/fetch/examples/inner/SKILL.md": skill("inner"),
        "node_modules/dep/skills/vendored/SKILL.md": skill("vendored"),
      }),
      "--skill",
      "*",
    );
    expect(result.status).toBe(0);
    expect(Object.keys(result.locked).sort()).toEqual(["csv-tools", "fetch", "prototype", "query"]);
    expect(result.locked.query?.source.path).toBe("cli-tool/components/skills/data/sql/query");
    expect((await box.run("verify")).status).toBe(0);
    expect((await box.run("remove", "prototype", "--project", "--yes")).status).toBe(0);
    expect(existsSync(join(box.cwd, ".skillshelf", "packages", "prototype"))).toBe(false);
  });

  it("follows agents' folders linked inside the repository, each skill once by its real folder", async () => {
    const box = changeSandbox();
    const tree: Record<string, Tree[string]> = {};
    for (const name of ["review", "deploy"]) {
      tree[`engineering-team/${name}/SKILL.md`] = skill(name);
      tree[`.codex/skills/${name}`] = link(`../../engineering-team/${name}`);
      tree[`.claude/skills/${name}`] = link(`../../engineering-team/${name}`);
    }
    const result = await install(box, repoUrl(tree), "--skill", "*");
    expect(result.status).toBe(0);
    expect(result.steps.map((step) => step.id).sort()).toEqual(["deploy", "review"]);
    expect(result.locked.review?.source.path).toBe("engineering-team/review");
  });

  it("refuses a skill linked out of the repository alone, commits the rest and exits 1 listing it; with --all-or-nothing, nothing", async () => {
    const repo = repoUrl({
      "skills/kept/SKILL.md": skill("kept"),
      "skills/escape": link(outsideSkill()),
    });
    const result = await install(changeSandbox(), repo, "--skill", "*");
    expect(result.status).toBe(1);
    expect(refusals(result)).toEqual([["skills/escape", "collection_link_outside"]]);
    expect(Object.keys(result.locked)).toEqual(["kept"]);
    const none = await install(changeSandbox(), repo, "--skill", "*", "--all-or-nothing");
    expect(none.status).toBe(1);
    expect(none.locked).toEqual({});
    // read at a terminal, the batch ends with its count
    const text = await changeSandbox().run("install", repo, "--skill", "*", "--project", "--yes");
    expect(text.stdout.trimEnd().split("\n").at(-1)).toBe("1 done, 1 refused");
  });

  it("stops at a link loop and at the depth limit, each named with its code and path", async () => {
    const box = changeSandbox();
    const dir = testdir({
      "cats/a/real/SKILL.md": skill("real"),
      "cats/a/loop": link(".."),
    });
    // a depth bomb: 10,000 nested folders (made by relative steps, past PATH_MAX)
    execFileSync("python3", [
      "-c",
      "import os,sys\nos.chdir(sys.argv[1])\nfor _ in range(10000):\n os.mkdir('d')\n os.chdir('d')",
      join(dir, "cats"),
    ]);
    try {
      const result = await install(box, dir, "--skill", "*");
      expect(result.status).toBe(0);
      expect(Object.keys(result.locked)).toEqual(["real"]);
      const found = result.diagnostics.map((d) => [d.code, d.path]);
      expect(found).toContainEqual(["collection_link_loop", join(dir, "cats/a/loop")]);
      expect(found.filter(([code]) => code === "collection_too_deep")).toHaveLength(1);
    } finally {
      execFileSync("rm", ["-rf", join(dir, "cats", "d")]);
    }
  });

  it("names the layouts it looked in when a repository has no skills anywhere", async () => {
    const box = changeSandbox();
    const result = await install(
      box,
      repoUrl({ "README.md": "nothing here\n", "src/index.js": "1\n" }),
      "--skill",
      "*",
    );
    expect(result.status).toBe(1);
    expect(refusals(result).map(([, code]) => code)).toEqual(["collection_empty"]);
    expect(result.steps[0]?.refusal?.details?.layouts).toEqual(
      expect.arrayContaining(["<name>/ at the root"]),
    );
  });
});

describe("a marketplace repository whose plugins share skill names", () => {
  const plugin = (name: string, skills: string[]): Tree => {
    const tree: Record<string, Tree[string]> = {
      [`plugins/${name}/.claude-plugin/plugin.json`]: JSON.stringify({
        name,
        version: "1.0.0",
        description: `The ${name} plugin.`,
      }),
    };
    for (const one of skills) tree[`plugins/${name}/skills/${one}/SKILL.md`] = skill(one);
    return tree;
  };
  const marketplace = (): string =>
    repoUrl({
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "team",
        plugins: ["slack", "github", "linear"].map((name) => ({
          name,
          source: `./plugins/${name}`,
        })),
      }),
      ...plugin("slack", ["access", "configure", "post"]),
      ...plugin("github", ["access", "configure", "pr"]),
      ...plugin("linear", ["access", "configure", "issue"]),
    });

  it("installs every uniquely named skill and refuses each shared name with all its paths", async () => {
    const box = changeSandbox();
    const result = await install(box, marketplace(), "--skill", "*");
    expect(result.status).toBe(1);
    expect(Object.keys(result.locked).sort()).toEqual(["issue", "post", "pr"]);
    expect(refusals(result)).toEqual([
      ["skill:access", "collection_duplicate"],
      ["skill:configure", "collection_duplicate"],
    ]);
    expect(
      result.steps.find((step) => step.ref === "skill:access")?.refusal?.details?.paths,
    ).toEqual([
      "plugins/github/skills/access",
      "plugins/linear/skills/access",
      "plugins/slack/skills/access",
    ]);
  });

  it("names the plugins of a marketplace whose repository offers nothing without --plugin", async () => {
    const box = changeSandbox();
    const commands = repoUrl({
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "team",
        plugins: ["review", "release"].map((name) => ({ name, source: `./plugins/${name}` })),
      }),
      "plugins/review/.claude-plugin/plugin.json": '{"name":"review","version":"1.0.0"}',
      "plugins/review/commands/review.md": "---\ndescription: Review a change\n---\nReview it.\n",
      "plugins/release/.claude-plugin/plugin.json": '{"name":"release","version":"1.0.0"}',
      "plugins/release/agents/releaser.md":
        "---\nname: releaser\ndescription: Cuts releases\n---\nRelease.\n",
    });
    const result = await install(box, commands);
    expect(result.status).toBe(1);
    const [step] = result.steps;
    expect(step?.refusal?.code).toBe("plugin_choice_required");
    expect(step?.refusal?.details?.plugins).toEqual([
      { name: "review", description: "" },
      { name: "release", description: "" },
    ]);
    expect(result.locked).toEqual({});
    const picked = await install(box, commands, "--plugin", "review");
    expect(picked.status).toBe(0);
    expect(Object.keys(picked.locked)).toEqual(["review"]);
    // a plugin listed where the repository holds nothing is refused by the folder it names
    const gone = await install(
      changeSandbox(),
      repoUrl({
        ".claude-plugin/marketplace.json": JSON.stringify({
          name: "team",
          plugins: [{ name: "gone", source: "./plugins/gone" }],
        }),
        "README.md": "# team\n",
      }),
      "--plugin",
      "gone",
    );
    expect(refusals(gone)).toEqual([["plugin:gone", "tree_missing"]]);
    expect(gone.steps[0]?.refusal?.details).toEqual({ plugin: "gone", folder: "plugins/gone" });
  });

  it("installs one of a shared name picked by its path", async () => {
    const box = changeSandbox();
    const result = await install(box, marketplace(), "--skill", "plugins/github/skills/access");
    expect(result.status).toBe(0);
    expect(result.locked.access?.source.path).toBe("plugins/github/skills/access");
  });

  it("installs a plugin whole with --plugin, and refuses a name the marketplace does not list", async () => {
    const box = changeSandbox();
    const result = await install(box, marketplace(), "--plugin", "github");
    expect(result.status).toBe(0);
    expect(Object.keys(result.locked)).toEqual(["github"]);
    expect(result.locked.github?.source.path).toBe("plugins/github");
    const typo = await install(changeSandbox(), marketplace(), "--plugin", "githb");
    expect(typo.status).toBe(1);
    expect(refusals(typo)).toEqual([["plugin:githb", "plugin_unknown"]]);
    expect(typo.steps[0]?.refusal?.details?.suggestion).toBe("github");
  });
});
