#!/usr/bin/env node
// The README's two commands, runnable with only Node.js 20 and npm:
//   npm run demo  →  node scripts/quickstart.mjs demo : install, build, `skillshelf list` on examples/, install and remove a package
//   npm test      →  node scripts/quickstart.mjs test : install, lint, build, typecheck, every test
//   npm run setup →  node scripts/quickstart.mjs build : install and build, nothing else
//   npm run pack-packages → node scripts/quickstart.mjs pack : install, build, pack every package into packs/
// It uses the pnpm pinned in package.json, installing it into .tools/ when the one on PATH differs.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const job = process.argv[2];
if (!["demo", "test", "build", "pack"].includes(job)) {
  console.error("usage: node scripts/quickstart.mjs demo|test|build|pack");
  process.exit(2);
}

const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: "1",
  DO_NOT_TRACK: "1",
  TURBO_NO_UPDATE_NOTIFIER: "1",
};
// the benchmark of the first command (packages/bench, "demo") reads how long each step took
const steps = {};
const timed = (step, work) => {
  const start = performance.now();
  work();
  steps[step] = performance.now() - start;
};
const pnpm = findPnpm();
timed("install", () => run(pnpm, ["install", "--frozen-lockfile"]));

if (job === "build" || job === "pack") {
  run(pnpm, ["run", "build"]);
  if (job === "pack") run(process.execPath, [join(root, "scripts", "pack-packages.mjs")]);
} else if (job === "demo") {
  timed("build", () => run(pnpm, ["run", "build"]));
  timed("demo", demo);
  const timesFile = env.SKILLSHELF_QUICKSTART_TIMES;
  if (timesFile) writeFileSync(timesFile, JSON.stringify(steps));
} else {
  run(pnpm, ["run", "lint"]);
  run(pnpm, ["run", "build"]);
  run(pnpm, ["run", "typecheck"]);
  ensureTestTools();
  mkdirSync(join(root, ".ci-out"), { recursive: true });
  run(pnpm, [
    "exec",
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=.ci-out/vitest.json",
  ]);
}

/** The demo's commands against the example library, then an install from a git repository. */
function demo() {
  const home = join(root, "examples", "home");
  const demoEnv = { ...env, HOME: home, SKILLSHELF_HOME: join(home, ".config", "skillshelf") };
  const cli = join(root, "packages", "cli", "dist", "cli.cjs");
  const project = join(root, "examples", "project");
  console.log("\n$ skillshelf list --kind all --cwd examples/project   (HOME=examples/home)");
  console.log(
    "  The example library holds, on purpose, two name clashes, two YAML slips and a symlink that\n  leaves the project: the warnings and the one error at the end show how they are reported.\n",
  );
  run(process.execPath, [cli, "list", "--kind", "all", "--cwd", project], demoEnv);
  console.log("\n$ skillshelf catalog --cwd examples/project   (what a model is shown)\n");
  run(process.execPath, [cli, "catalog", "--cwd", project], demoEnv);
  console.log(
    "\n$ skillshelf search release --cwd examples/project   (the example package index)\n",
  );
  run(process.execPath, [cli, "search", "release", "--cwd", project], demoEnv);
  demoInstall(cli);
}

/**
 * The registries the tests start are real ones from Debian packages: the CNCF distribution
 * registry (`docker-registry`), `skopeo` as an independent OCI client, and `htpasswd` for the
 * registry's user; `ssh-keygen` makes and checks the SSH signatures of signed skills; `script`
 * runs the bin on a pseudo-terminal. Missing ones are installed with apt-get (as root, or through `sudo -n`);
 * where that cannot be done, say what to install and stop.
 */
function ensureTestTools() {
  const tools = {
    "docker-registry": "docker-registry",
    skopeo: "skopeo",
    htpasswd: "apache2-utils",
    "ssh-keygen": "openssh-client",
    script: "bsdutils",
  };
  const missing = Object.entries(tools)
    .filter(([command]) => spawnSync("sh", ["-c", `command -v ${command}`]).status !== 0)
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  const asRoot = process.getuid?.() === 0;
  const apt = asRoot ? ["apt-get"] : ["sudo", "-n", "apt-get"];
  console.log(
    `\n$ ${apt.join(" ")} install ${missing.join(" ")}   (the registries the tests start)`,
  );
  const [command, ...prefix] = apt;
  const quiet = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  const updated = spawnSync(command, [...prefix, "update", "-q"], { stdio: "inherit", env: quiet });
  const installed =
    updated.status === 0 &&
    spawnSync(command, [...prefix, "install", "-y", "-q", "--no-install-recommends", ...missing], {
      stdio: "inherit",
      env: quiet,
    }).status === 0;
  if (!installed) {
    console.error(
      `the tests need the Debian packages ${missing.join(", ")}: install them and run npm test again`,
    );
    process.exit(1);
  }
}

/**
 * Install a package from a local git repository made for the demo under examples/.demo/ (with a
 * home of its own there, so nothing the repository tracks changes), show it, verify it, remove it.
 */
function demoInstall(cli) {
  const demo = join(root, "examples", ".demo");
  rmSync(demo, { recursive: true, force: true });
  const repo = join(demo, "semver-check");
  cpSync(join(root, "examples", "library", "packages", "semver-check"), repo, { recursive: true });
  const identity = {
    GIT_AUTHOR_NAME: "Demo",
    GIT_AUTHOR_EMAIL: "demo@example.com",
    GIT_COMMITTER_NAME: "Demo",
    GIT_COMMITTER_EMAIL: "demo@example.com",
  };
  const git = (...args) =>
    spawnSync("git", args, { cwd: repo, env: { ...env, ...identity }, encoding: "utf8" });
  if (git("init", "--quiet", "--initial-branch=main").status !== 0) {
    console.log("\n(git is not installed: the install demo is skipped)");
    return;
  }
  git("add", "--all");
  git("commit", "--quiet", "-m", "semver-check 0.3.1");
  const home = join(demo, "home");
  const demoEnv = { ...env, HOME: home, SKILLSHELF_HOME: join(home, ".config", "skillshelf") };
  const step = (title, args) => {
    console.log(`\n$ skillshelf ${title}\n`);
    run(process.execPath, [cli, ...args, "--cwd", demo], demoEnv);
  };
  console.log(
    "\nInstalling from a git repository the demo made in examples/.demo/ (HOME=examples/.demo/home):",
  );
  step("install ./semver-check#main --user --yes", ["install", `${repo}#main`, "--user", "--yes"]);
  step("list --kind packages", ["list", "--kind", "packages"]);
  step("verify", ["verify"]);
  step("remove semver-check --yes", ["remove", "semver-check", "--yes"]);
}

/**
 * The pinned pnpm: the one on PATH when its version matches, else one installed into .tools/,
 * whose folder then goes first on PATH so turbo's own pnpm calls find it too.
 */
function findPnpm() {
  const wanted = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
    .packageManager.split("@")[1]
    .split("+")[0];
  const onPath = spawnSync("pnpm", ["--version"], {
    encoding: "utf8",
    env,
    shell: process.platform === "win32",
  });
  if (onPath.status === 0 && onPath.stdout.trim() === wanted) return "pnpm";
  const local = join(root, ".tools", "node_modules", ".bin", "pnpm");
  if (!existsSync(local)) {
    console.log(`quickstart: installing pnpm@${wanted} into .tools/`);
    run("npm", [
      "install",
      "--prefix",
      join(root, ".tools"),
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `pnpm@${wanted}`,
    ]);
  }
  env.PATH = `${dirname(local)}${delimiter}${env.PATH ?? ""}`;
  return local;
}

/** Run a command in the repository and stop with its status if it fails. */
function run(command, args, runEnv = env) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: runEnv,
    shell: process.platform === "win32",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
