import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bareClone, CORPUS_DIR, gitRepo, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { EXAMPLES } from "./_run.js";
import { changeSandbox } from "./_sandbox.js";

interface Row {
  kind: string;
  name: string;
  version: string;
  sourceUrl: string;
  sha256: string;
  change: string;
}

const rowsOf = (stdout: string): Row[] => (JSON.parse(stdout) as { rows: Row[] }).rows;

/** Two real skills of the corpus, in the layout their repository has. */
function corpusCollection(): string {
  const into = testdir();
  for (const name of ["doc-coauthoring", "internal-comms"])
    cpSync(join(CORPUS_DIR, "skills/anthropics-skills/skills", name), join(into, "skills", name), {
      recursive: true,
    });
  return into;
}

describe("register a package in an index (issue 53, item 1)", () => {
  it("writes pinned rows an install takes, re-pins a changed package, and validate sees drift", async () => {
    const box = changeSandbox();
    const kit = join(testdir(), "semver-check");
    cpSync(join(EXAMPLES, "library/packages/semver-check"), kit, { recursive: true });
    const index = join(box.cwd, ".skillshelf", "library.yaml");
    mkdirSync(join(box.cwd, ".skillshelf"));
    writeFileSync(index, "# the team's index: rows below are pinned by skillshelf register\n");

    const registered = await box.run("register", kit, corpusCollection(), "--project", "--json");
    expect(registered.status, registered.stderr).toBe(0);
    const rows = rowsOf(registered.stdout);
    expect(
      rows.map(({ kind, name, version, change }) => ({ kind, name, version, change })),
    ).toEqual([
      { kind: "skill", name: "semver-check", version: "0.3.1", change: "added" },
      { kind: "skill", name: "doc-coauthoring", version: "0.0.0", change: "added" },
      { kind: "skill", name: "internal-comms", version: "0.0.0", change: "added" },
    ]);
    expect(readFileSync(index, "utf8")).toMatch(/^# the team's index/);
    expect((await box.run("validate", index)).status).toBe(0);

    const installed = await box.run(
      "install",
      "skill:internal-comms",
      "skill:semver-check",
      "--project",
      "--yes",
    );
    expect(installed.status, installed.stderr).toBe(0);
    expect((await box.run("verify")).status).toBe(0);

    // the package changes: its row no longer matches, until it is registered again
    appendFileSync(join(kit, "SKILL.md"), "\nOne more step.\n");
    const drifted = await box.run("validate", index, "--json");
    expect(drifted.status).toBe(1);
    expect(drifted.stdout).toContain("index_pin_mismatch");
    const again = await box.run("register", kit, "--project", "--json");
    expect(rowsOf(again.stdout).map((row) => row.change)).toEqual(["updated"]);
    expect((await box.run("validate", index)).status).toBe(0);
    const unchanged = await box.run("register", kit, "--project", "--json");
    expect(rowsOf(unchanged.stdout).map((row) => row.change)).toEqual(["unchanged"]);
  });

  it("pins a git source to the commit fetched, and refuses what does not validate", async () => {
    const box = changeSandbox();
    const repo = gitRepo(
      [{ tree: { "SKILL.md": skillFile("triage", "Triage a failing build.") } }],
      box.env,
    );
    const [commit] = repo.commits;
    const index = join(testdir(), "team.yaml");
    const registered = await box.run(
      "register",
      `git+file://${repo.path}`,
      "--index",
      index,
      "--json",
    );
    expect(registered.status, registered.stderr).toBe(0);
    expect(rowsOf(registered.stdout)).toMatchObject([
      { kind: "skill", name: "triage", sourceUrl: `file://${repo.path}#${commit}` },
    ]);
    expect((await box.run("sources", "add", index)).status).toBe(0);
    const installed = await box.run("install", "triage", "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    expect(box.userLock().triage?.source).toMatchObject({ type: "git", ref: commit });

    const broken = testdir({ "plugin.json": JSON.stringify({ name: "Not An Id" }) });
    const refused = await box.run("register", broken, "--index", index, "--json");
    expect(refused.status).toBe(1);
    expect(
      (JSON.parse(refused.stdout) as { refused: { code: string }[] }).refused.map((r) => r.code),
    ).toEqual(["manifest_invalid"]);
    expect(rowsOf(refused.stdout)).toEqual([]);
  });
});

describe("publish keeps a repository's index in sync (issue 53, item 2)", () => {
  it("updates the row in the publish commit, tags the package's version, and installs at that commit", async () => {
    const box = changeSandbox();
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-C", cwd, ...args], { env: box.env, encoding: "utf8" }).trim();
    const bare = bareClone(
      gitRepo([{ tree: { "library.yaml": "# Team skills\nentries: []\n" } }], box.env).path,
      box.env,
    );
    const kit = testdir({
      "plugin.json": JSON.stringify({
        name: "kit",
        version: "1.0.0",
        description: "A kit.",
        extensions: { skillshelf: { manifestVersion: 1, kind: "plugin" } },
      }),
      "skills/hello/SKILL.md": skillFile("hello", "Greet the user."),
    });
    const published = await box.run("publish", join(kit, "skills/hello"), `git+${bare}`, "--json");
    expect(published.status, published.stderr).toBe(0);
    expect(git(bare, "tag", "--list")).toBe("hello@1.0.0");
    const head = git(bare, "rev-parse", "main");
    const index = git(bare, "show", `${head}:library.yaml`);
    expect(index).toMatch(/^# Team skills\nentries:\n {2}- kind: skill\n {4}name: hello\n/);
    expect(index).toContain("sourceUrl: ./skills/hello");

    expect((await box.run("sources", "add", `git+${bare}`)).status).toBe(0);
    const found = await box.run("search", "greet", "--json");
    expect(found.stdout).toContain('"hello"');
    const installed = await box.run("install", "skill:hello", "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    expect(readFileSync(join(box.configDir, "lock.json"), "utf8")).toContain(`"commit": "${head}"`);
    expect((await box.run("verify")).status).toBe(0);
  });
});

describe("a site folder is a source (issue 53, item 3)", () => {
  it("adds the folder, its index file and its file:// URL alike, then searches and installs from it", async () => {
    const box = changeSandbox();
    const site = testdir();
    const from = testdir({
      "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
      "skills/deploy/SKILL.md": skillFile("deploy", "Deploy the site."),
      "skills/deploy/scripts/run.sh": { content: "echo run\n", mode: 0o755 },
    });
    expect((await box.run("publish", from, `site:${site}`)).status).toBe(0);
    const url = pathToFileURL(site).href;
    for (const named of [site, join(site, ".well-known/agent-skills/index.json"), url]) {
      const added = await box.run("sources", "add", named);
      expect(added.status, added.stderr).toBe(0);
    }
    const listed = JSON.parse((await box.run("sources", "list", "--json")).stdout) as {
      indexes: { name: string; rows: number }[];
    };
    expect(listed.indexes.map(({ name, rows }) => ({ name, rows }))).toEqual([
      { name: url, rows: 2 },
    ]);
    expect((await box.run("search", "pdf", "--json")).stdout).toContain(url);
    const installed = await box.run("install", "skill:deploy", "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    expect(box.userLock().deploy?.source).toEqual({ type: "well-known", url, path: "deploy" });
    expect((await box.run("verify")).status).toBe(0);
  });

  it("never reads a file its index names outside the folder", async () => {
    const box = changeSandbox();
    const outside = testdir({ "SKILL.md": skillFile("secret", "Not the site's.") });
    const site = testdir();
    const bytes = readFileSync(join(outside, "SKILL.md"));
    const digest = execFileSync("sha256sum", { input: bytes, encoding: "utf8" }).split(" ")[0];
    mkdirSync(join(site, ".well-known/agent-skills"), { recursive: true });
    writeFileSync(
      join(site, ".well-known/agent-skills/index.json"),
      JSON.stringify({
        skills: [
          {
            name: "secret",
            type: "skill-md",
            description: "x",
            url: pathToFileURL(join(outside, "SKILL.md")).href,
            digest: `sha256:${digest}`,
          },
        ],
      }),
    );
    const installed = await box.run(
      "install",
      `${pathToFileURL(site).href}//secret`,
      "--user",
      "--yes",
      "--json",
    );
    expect(installed.status).toBe(1);
    expect(installed.stdout).toContain("download_failed");
    expect(box.userLock()).toEqual({});
  });
});
