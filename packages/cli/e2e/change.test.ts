import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { digestTree } from "@skillshelf/core";
import {
  bareClone,
  gitRepo,
  packageTree,
  serve,
  serveHttps,
  skillFile,
  tarGz,
  testdir,
  writeTree,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { REPO, runCliAsync } from "../test/_run.js";
import { changeSandbox, codesOf, corpusClaudePlugin } from "../test/_sandbox.js";

const skill = (name: string, tools = "Read") =>
  skillFile(name, `The ${name} skill.`, `allowed-tools: ${tools}\n`);

describe("install from the sources people use", () => {
  it("installs a local folder, then lists, locks and verifies it", async () => {
    const box = changeSandbox();
    const dir = testdir(packageTree({ id: "pdf" }));
    const result = await box.run("install", dir, "--user", "--yes");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("Plan for the user scope");
    expect(await box.skills()).toEqual(["pdf"]);
    expect(Object.keys(box.userLock())).toEqual(["pdf"]);
    expect((await box.run("verify")).status).toBe(0);
    const listed = JSON.parse((await box.run("list", "--kind", "packages", "--json")).stdout);
    expect(listed.packages[0]).toMatchObject({
      name: "pdf",
      origin: { kind: "local", path: dir },
      from: expect.any(String),
    });
  });

  it("installs from a git repository by file:// URL, bare path, #tag and //subfolder", async () => {
    const box = changeSandbox();
    const repo = gitRepo(
      [
        { tree: { ...packageTree({ id: "kit", version: "1.0.0" }) }, tag: "v1" },
        {
          tree: {
            ...packageTree({ id: "kit", version: "2.0.0" }),
            "extra/sub/SKILL.md": skill("sub-skill"),
          },
        },
      ],
      box.env,
    );
    const bare = bareClone(repo.path, box.env);
    const version = async () =>
      JSON.parse((await box.run("list", "--kind", "packages", "--json")).stdout).packages.map(
        (row: { name: string; version: string }) => `${row.name}@${row.version}`,
      );
    expect((await box.run("install", `file://${bare}`, "--user", "--yes")).status).toBe(0);
    expect(await version()).toEqual(["kit@2.0.0"]);
    expect((await box.run("remove", "kit", "--yes")).status).toBe(0);
    expect((await box.run("install", `${bare}#v1`, "--user", "--yes")).status).toBe(0);
    expect(await version()).toEqual(["kit@1.0.0"]);
    expect(box.userLock().kit).toMatchObject({ source: { type: "git", url: bare, ref: "v1" } });
    expect((await box.run("install", `${bare}//extra/sub`, "--user", "--yes")).status).toBe(0);
    expect(await version()).toEqual(["kit@1.0.0", "sub-skill@0.0.0"]);
    expect(box.userLock()["sub-skill"]).toMatchObject({
      source: { type: "git", url: bare, path: "extra/sub" },
    });
  });

  it("installs a loopback .tar.gz and .zip", async () => {
    const box = changeSandbox();
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from(skill("zipped")), "zipped/SKILL.md");
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const base = await serve({
      "/tarred.tar.gz": tarGz([{ path: "tarred/SKILL.md", content: skill("tarred") }]),
      "/zipped.zip": Buffer.concat(chunks),
    });
    for (const url of [`${base}/tarred.tar.gz`, `${base}/zipped.zip`]) {
      const result = await box.runAsync("install", url, "--user", "--yes");
      expect(result.status, result.stdout + result.stderr).toBe(0);
    }
    expect(await box.skills()).toEqual(["tarred", "zipped"]);
  });

  it("installs an index row by name", async () => {
    const box = changeSandbox();
    const dir = testdir(packageTree({ id: "semver" }));
    const { digest } = digestTree(dir);
    writeTree(box.configDir, {
      "library.yaml": `entries:\n  - kind: plugin\n    name: semver\n    description: Versions.\n    sourceUrl: ${dir}\n    version: 1.0.0\n    sha256: ${digest}\n`,
    });
    const result = await box.run("install", "semver", "--user", "--yes");
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(box.userLock().semver).toMatchObject({ index: expect.any(String) });
  });

  it("picks skills from a collection with --skill, and off a terminal refuses one of several, listing them", async () => {
    const box = changeSandbox();
    const dir = testdir({
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/beta/SKILL.md": skill("beta"),
    });
    const refused = await box.run("install", dir, "--user", "--yes", "--json");
    expect(refused.status).toBe(1);
    expect(codesOf(refused)).toEqual(["collection_choice_required"]);
    const text = await box.run("install", dir, "--user", "--yes");
    expect(text.stdout).toMatch(/alpha: The alpha skill\.\n.*beta: The beta skill\./);
    expect((await box.run("install", dir, "--user", "--yes", "--skill", "beta")).status).toBe(0);
    expect(await box.skills()).toEqual(["beta"]);
  });

  it("imports a Claude Code plugin from the corpus as a foreign package", async () => {
    const box = changeSandbox();
    const plugin = corpusClaudePlugin(join(testdir(), "frontend-design"));
    const result = await box.run("import", plugin, "--user", "--yes", "--json");
    expect(result.status, result.stdout).toBe(0);
    const listed = JSON.parse(
      (await box.run("list", "--kind", "packages", "--json")).stdout,
    ).packages;
    expect(listed[0]).toMatchObject({
      name: "frontend-design",
      format: "claude-code",
      trusted: false,
    });
    // foreign: listed, but never shown to a model
    expect((await box.run("catalog")).stdout).not.toContain("frontend-design");
    expect((await box.run("import", testdir(packageTree({ id: "x" })), "--yes")).stderr).toContain(
      "import_not_claude_plugin",
    );
  });
});

describe("changing what is installed", () => {
  it("updates after a new commit, showing the capability diff, then rolls back", async () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: { "SKILL.md": skill("tool") } }], box.env);
    expect((await box.run("install", `${repo.path}#main`, "--user", "--yes")).status).toBe(0);
    const first = box.userLock().tool?.digest;
    writeTree(repo.path, {
      "SKILL.md": skill("tool", "Read Bash"),
      "scripts/run.sh": { content: "#!/bin/sh\necho hi\n", mode: 0o755 },
    });
    execFileSync("git", ["add", "--all"], { cwd: repo.path, env: box.env });
    execFileSync("git", ["commit", "--quiet", "-m", "v2"], { cwd: repo.path, env: box.env });
    const dry = await box.run("update", "tool", "--dry-run");
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain("allowed-tools Read -> Bash Read");
    expect(dry.stdout).toContain("executable scripts/run.sh added");
    const updated = await box.run("update", "tool", "--yes", "--json");
    expect(updated.status, updated.stdout).toBe(0);
    expect(JSON.parse(updated.stdout).plan.steps[0].capabilities.executables).toEqual([
      { path: "scripts/run.sh", change: "added" },
    ]);
    expect(box.userLock().tool?.digest).not.toBe(first);
    expect((await box.run("rollback", "tool", "--yes")).status).toBe(0);
    expect(box.userLock().tool?.digest).toBe(first);
  });

  it("disables and enables (the skill leaves and returns), removes (gone from list, lock and disk)", async () => {
    const box = changeSandbox();
    expect(
      (await box.run("install", testdir(packageTree({ id: "pdf" })), "--user", "--yes")).status,
    ).toBe(0);
    expect((await box.run("disable", "pdf", "--yes")).status).toBe(0);
    expect(await box.skills()).toEqual([]);
    expect(box.userLock().pdf?.enabled).toBe(false);
    expect((await box.run("enable", "pdf", "--yes")).status).toBe(0);
    expect(await box.skills()).toEqual(["pdf"]);
    expect((await box.run("remove", "pdf", "--yes")).status).toBe(0);
    expect(await box.skills()).toEqual([]);
    expect(box.userLock()).toEqual({});
    expect(existsSync(join(box.configDir, "packages", "pdf"))).toBe(false);
    const again = await box.run("remove", "pdf", "--yes", "--json");
    expect(again.status).toBe(1);
    expect(codesOf(again)).toEqual(["not_installed"]);
  });
});

describe("the lock a team commits", () => {
  it("restores a fresh clone by install alone, and --frozen fails after the lock was edited", async () => {
    const box = changeSandbox();
    const project = join(box.cwd, "app");
    execFileSync("git", ["init", "--quiet", project], { env: box.env });
    const dir = testdir(packageTree({ id: "pdf" }));
    const run = async (...args: string[]) => await box.run(...args, "--cwd", project);
    // in a git work tree the project scope is the default
    const installed = await box.run("install", dir, "--cwd", project, "--yes", "--json");
    expect(JSON.parse(installed.stdout).scope).toBe("project");
    const lock = join(project, ".skillshelf", "lock.json");
    expect(readFileSync(join(project, ".skillshelf", "packages", ".gitignore"), "utf8")).toBe(
      "*\n",
    );
    // a fresh clone: only the lock is committed
    const clone = join(box.cwd, "clone");
    writeTree(clone, {
      ".git/HEAD": "ref: refs/heads/main\n",
      ".skillshelf/lock.json": readFileSync(lock, "utf8"),
    });
    expect((await box.run("install", "--cwd", clone, "--yes")).status).toBe(0);
    expect((await box.run("verify", "--cwd", clone)).status).toBe(0);
    expect(readdirSync(join(clone, ".skillshelf", "packages"))).toContain("pdf");
    // someone edits the pin: a frozen install refuses to change anything
    const edited = JSON.parse(readFileSync(lock, "utf8"));
    edited.packages.pdf.digest = "0".repeat(64);
    writeFileSync(lock, JSON.stringify(edited));
    const frozen = await run("install", "--frozen", "--yes", "--json");
    expect(frozen.status).toBe(1);
    expect(codesOf(frozen)).toEqual(["digest_mismatch"]);
    // and CI's frozen install refuses anything that would change the lock
    const added = await run(
      "install",
      testdir(packageTree({ id: "other" })),
      "--frozen",
      "--yes",
      "--json",
    );
    expect(added.status).toBe(1);
    expect(codesOf(added)).toContain("lock_frozen");
  });

  it("verify passes, then fails after a file of a copy changes, naming the fix", async () => {
    const box = changeSandbox();
    await box.run("install", testdir(packageTree({ id: "pdf" })), "--user", "--yes");
    expect((await box.run("verify")).status).toBe(0);
    writeFileSync(join(box.configDir, "packages", "pdf", "skills", "pdf", "SKILL.md"), "edited\n");
    const failed = await box.run("verify", "--json");
    expect(failed.status).toBe(1);
    const problems = JSON.parse(failed.stdout).scopes[0].problems;
    expect(problems.map((problem: { code: string }) => problem.code)).toEqual(["content_drift"]);
    expect(problems[0].hint).toContain("skillshelf install --user");
    // it names the file that changed (issue 23, item 13)
    expect(problems[0].message).toContain(": skills/pdf/SKILL.md");
    expect((await box.run("verify")).stderr).toContain("skills/pdf/SKILL.md");
    // the fix it names works
    expect((await box.run("install", "--user", "--yes")).status).toBe(0);
    expect((await box.run("verify")).status).toBe(0);
  });

  it("doctor reports a lock left by a killed process", async () => {
    const box = changeSandbox();
    await box.run("install", testdir(packageTree({ id: "pdf" })), "--user", "--yes");
    // a process takes the user scope's lock and is killed while it holds it
    const store = pathToFileURL(join(REPO, "packages", "store", "dist", "writers.js")).href;
    const core = pathToFileURL(join(REPO, "packages", "core", "dist", "index.js")).href;
    const holder = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { withScopeLock } = await import(${JSON.stringify(store)});
const { resolveEnvironment } = await import(${JSON.stringify(core)});
const environment = resolveEnvironment({ cwd: process.cwd(), env: process.env });
withScopeLock({ environment, scope: "user" }, () => {
  console.log("held");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});`,
      ],
      { cwd: box.cwd, env: box.env },
    );
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    const lockDir = join(box.configDir, "packages", ".lock");
    expect(existsSync(lockDir)).toBe(true);
    const doctor = await box.run("doctor", "--json");
    expect(doctor.status).toBe(0);
    expect(
      JSON.parse(doctor.stdout).findings.map((finding: { code: string; path: string }) => [
        finding.code,
        finding.path,
      ]),
    ).toEqual([["lock_stale", lockDir]]);
    // and the next change takes it over
    expect((await box.run("disable", "pdf", "--yes")).status).toBe(0);
  });
});

describe("remote indexes", () => {
  it("adds a marketplace repository, then searches and installs from it", async () => {
    const box = changeSandbox();
    const repo = gitRepo(
      [
        {
          tree: {
            ".claude-plugin/marketplace.json": JSON.stringify({
              name: "team",
              plugins: [{ name: "helper", source: "./plugins/helper", description: "Team helper" }],
            }),
            ...Object.fromEntries(
              Object.entries(packageTree({ id: "helper" })).map(([path, entry]) => [
                `plugins/helper/${path}`,
                entry,
              ]),
            ),
          },
        },
      ],
      box.env,
    );
    const bare = bareClone(repo.path, box.env);
    const added = await box.run("sources", "add", bare, "--user");
    expect(added.status, added.stderr).toBe(0);
    const listed = JSON.parse((await box.run("sources", "list", "--json")).stdout).indexes;
    expect(listed.map((index: { kind: string; name: string }) => [index.kind, index.name])).toEqual(
      [["remote", bare]],
    );
    // search names the marketplace, not the folder it was fetched into (issue 23, item 13)
    const found = (await box.run("search", "helper")).stdout;
    expect(found).toContain("helper");
    expect(found).toContain("from team\n");
    expect(found).not.toContain(join(box.configDir, "cache"));
    const installed = await box.run("install", "plugin:helper", "--user", "--yes");
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    expect(box.userLock().helper).toMatchObject({
      source: { type: "git", url: bare, path: "plugins/helper" },
    });
    expect((await box.run("sources", "update")).status).toBe(0);
    expect((await box.run("sources", "remove", bare, "--user")).status).toBe(0);
  });

  it("adds an https index file, fetched and checked, and refuses one that is not an index", async () => {
    const box = changeSandbox();
    const dir = testdir(packageTree({ id: "remote-kit" }));
    const row = {
      kind: "plugin",
      name: "remote-kit",
      description: "Offered by a remote index.",
      sourceUrl: dir,
      version: "1.0.0",
      sha256: digestTree(dir).digest,
    };
    const { url, certificate } = await serveHttps({
      "/library.json": Buffer.from(JSON.stringify([row])),
      "/plugin.json": Buffer.from(JSON.stringify({ name: "x", version: "1.0.0" })),
    });
    const env = { ...box.env, NODE_EXTRA_CA_CERTS: certificate };
    const added = await runCliAsync(["sources", "add", `${url}/library.json`, "--user"], {
      cwd: box.cwd,
      env,
    });
    expect(added.status, added.stderr).toBe(0);
    const found = (await box.run("search", "remote")).stdout;
    expect(found).toContain("remote-kit");
    // an index that names itself nothing is called by its URL
    expect(found).toContain(`from ${url}/library.json\n`);
    const refused = await runCliAsync(["sources", "add", `${url}/plugin.json`, "--user"], {
      cwd: box.cwd,
      env,
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("index_invalid");
    const updated = await runCliAsync(["sources", "update", "--json"], { cwd: box.cwd, env });
    expect(JSON.parse(updated.stdout).updated).toMatchObject([
      { name: `${url}/library.json`, rows: 1 },
    ]);
  });

  it("refuses a source that is not an index, and adds nothing", async () => {
    const box = changeSandbox();
    const plugin = testdir(packageTree({ id: "x" }));
    const refused = await box.run("sources", "add", join(plugin, "plugin.json"), "--user");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("index_invalid");
    const repo = bareClone(gitRepo([{ tree: { "README.md": "no index" } }], box.env).path, box.env);
    expect((await box.run("sources", "add", repo, "--user")).stderr).toContain("index_missing");
    expect(JSON.parse((await box.run("sources", "list", "--json")).stdout).indexes).toEqual([]);
  });
});

describe("confirmation off a terminal", () => {
  it("prints the plan and exits 1 with confirmation_required without --yes, writing nothing", async () => {
    const box = changeSandbox();
    const dir = testdir(packageTree({ id: "pdf" }));
    const result = await box.run("install", dir, "--user");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("install plugin:pdf");
    expect(result.stderr).toContain("confirmation_required");
    expect(existsSync(join(box.configDir, "packages"))).toBe(false);
    const json = await box.run("install", dir, "--user", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ version: 1, scope: "user", outcomes: [] });
    expect(codesOf(json)).toEqual(["install_not_linked", "confirmation_required"]);
    const dry = await box.run("install", dir, "--user", "--dry-run", "--json");
    expect(dry.status).toBe(0);
    expect(JSON.parse(dry.stdout).outcomes).toEqual([]);
    // no progress or colour lines reach a pipe: only the findings
    expect((await box.run("install", dir, "--user", "--yes")).stderr).toMatch(
      /^warning install_not_linked: [^\n]*\n {2}hint: [^\n]*\n$/,
    );
  });
});
