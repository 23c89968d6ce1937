import { join } from "node:path";
import { resolveEnvironment } from "@skillshelf/core";
import { skillFile, smallFilesystem, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runStoreChild } from "./_child.js";
import { stagePackage } from "./_store.js";

// Issue 32, item 2: a write that fails after `state.json` is committed. Each case runs in a child
// process on a real 2 MiB tmpfs of its own, filled up at the named point; where this machine cannot
// mount one, the same point throws ENOSPC instead (the `fill` below says which it did).

const CHILD = `
const { environment } = args;
const mount = args.mount;
for (const dir of [environment.home, environment.cwd]) fs.mkdirSync(dir, { recursive: true });
const filler = mount + "/filler";
const fill = () => {
  if (!args.real) throw Object.assign(new Error("no space left"), { code: "ENOSPC" });
  const fd = fs.openSync(filler, "w");
  const chunk = Buffer.alloc(64 * 1024, 1);
  try { for (;;) fs.writeSync(fd, chunk); } catch (error) { if (error.code !== "ENOSPC") throw error; }
  try { for (;;) fs.writeSync(fd, chunk, 0, 1); } catch (error) { if (error.code !== "ENOSPC") throw error; }
  fs.closeSync(fd);
};
const facts = (id) => store.observeCopyFacts({ environment, scope: "user", id });
const install = (staged, extra = {}) => store.installPackage({
  environment, scope: "user", staged, origin: { source: { type: "local", path: staged.dir } },
  reviewed: facts(staged.id), keepPrevious: true, ...extra });
const view = () => store.readPackageSnapshot(environment).copies
  .map((copy) => [copy.id, copy.record?.version ?? null, copy.observedDigest === copy.record?.contentDigest, copy.state]);
const expectedLock = () => JSON.stringify(store.lockFromState(
  store.readScopeState(environment, "user").value.state, store.lockRoot(environment, "user")));
// what readers are given, and what the file itself holds
const lockReads = () => JSON.stringify(store.readLockFile(environment, "user").value.value) === expectedLock();
const lockFileMatches = () => fs.readFileSync(store.lockFilePath(environment, "user"), "utf8") ===
  store.serializeLockFile(store.lockFromState(store.readScopeState(environment, "user").value.state,
    store.lockRoot(environment, "user")));
// a read's cache (.remembered.json) is not something a writer left
const dots = () => fs.readdirSync(store.packagesDir(environment, "user")).filter((name) => name.startsWith(".") && name !== ".remembered.json").sort();
for (const staged of args.before) install(staged);
for (const link of args.links ?? []) store.linkResources({ environment, scope: "user", links: [link] });
const hook = (point) => { if (point === args.point) fill(); };
let failure;
try {
  const batch = store.installPackages(args.batch.map((staged) => withFaultHook({
    environment, scope: "user", staged, origin: { source: { type: "local", path: staged.dir } },
    reviewed: facts(staged.id), keepPrevious: true }, hook)));
  if (batch.failure !== undefined) throw batch.failure.error;
} catch (error) { failure = { code: error.code, path: error.path }; }
const failed = { failure, copies: view(), lockReadMatches: lockReads(), dots: dots() };
fs.rmSync(filler, { force: true });
const settled = store.recoverScope({ environment, scope: "user" }).map((d) => d.code);
const linkFaults = store.inspectLinks(environment, "user").faults.map((fault) => fault.code);
const copied = args.copied === undefined ? undefined : fs.readFileSync(args.copied, "utf8");
console.log(JSON.stringify({ failed, settled, copies: view(), lockMatches: lockReads() && lockFileMatches(), dots: dots(), linkFaults, copied }));
`;

interface Outcome {
  failed: {
    failure?: { code: string; path?: string };
    copies: [string, string | null, boolean, string][];
    lockReadMatches: boolean;
    dots: string[];
  };
  settled: string[];
  copies: [string, string | null, boolean, string][];
  lockMatches: boolean;
  dots: string[];
  linkFaults: string[];
  copied?: string;
}

async function fillUpAt(
  point: string,
  packages: {
    before: { id: string; version: string; files?: Record<string, string> }[];
    batch: { id: string; version: string; files?: Record<string, string> }[];
    linkCopyOf?: string;
  },
): Promise<Outcome & { real: boolean; lockPath: string }> {
  const mount = testdir();
  const wrapper = smallFilesystem(mount, 2048);
  const environment = resolveEnvironment({
    home: join(mount, "home"),
    cwd: join(mount, "project"),
    configDir: join(mount, "home", ".config", "skillshelf"),
    env: {},
  });
  const staged = (spec: { id: string; version: string; files?: Record<string, string> }) => ({
    id: spec.id,
    ...stagePackage({
      id: spec.id,
      version: spec.version,
      skills: ["pdf"],
      ...(spec.files === undefined ? {} : { files: spec.files }),
    }),
  });
  const copied = join(environment.home, ".agents", "skills", "pdf", "SKILL.md");
  const links =
    packages.linkCopyOf === undefined
      ? []
      : [
          {
            agent: "codex",
            kind: "skill",
            target: join(environment.configDir, "packages", packages.linkCopyOf, "skills", "pdf"),
            name: "pdf",
            package: packages.linkCopyOf,
            copy: true,
          },
        ];
  const run = await runStoreChild(
    CHILD,
    {
      environment,
      mount,
      real: wrapper !== undefined,
      point,
      before: packages.before.map(staged),
      batch: packages.batch.map(staged),
      links,
      ...(packages.linkCopyOf === undefined ? {} : { copied }),
    },
    { wrapper },
  );
  expect(run.stderr).toBe("");
  return {
    ...(JSON.parse(run.stdout) as Outcome),
    real: wrapper !== undefined,
    lockPath: join(environment.configDir, "lock.json"),
  };
}

function expectSettledForward(outcome: Outcome, copies: [string, string][]) {
  const loadable = copies.map(([id, version]) => [id, version, true, "loadable"]);
  // the step stands as committed: every record with its tree, even before it is finished
  expect(outcome.failed.copies).toEqual(loadable);
  expect(outcome.failed.lockReadMatches).toBe(true);
  expect(outcome.failed.dots).toContain(".@step.journal.json");
  expect(outcome.settled).toContain("operation_completed");
  expect(outcome.copies).toEqual(loadable);
  expect(outcome.lockMatches).toBe(true);
  expect(outcome.dots.filter((name) => name !== ".previous")).toEqual([]);
}

describe("a disk that fills up after the state commit", () => {
  it("leaves an update committed, v2 trees under v2 records, and the next writer finishes it", async () => {
    const outcome = await fillUpAt("committed", {
      before: [{ id: "tools", version: "1.0.0" }],
      batch: [{ id: "tools", version: "2.0.0" }],
    });
    expect(outcome.failed.failure?.code).toBe("disk_full");
    if (outcome.real) expect(outcome.failed.failure?.path).toBe(outcome.lockPath);
    expectSettledForward(outcome, [["tools", "2.0.0"]]);
    expect(outcome.settled).toContain("lock_updated");
    // the replaced tree became the previous version, as a finished update keeps it
    expect(outcome.dots).toEqual([".previous"]);
  });

  it("leaves five fresh installs recorded with their five trees", async () => {
    const ids = ["a-kit", "b-kit", "c-kit", "d-kit", "e-kit"];
    const outcome = await fillUpAt("committed", {
      before: [],
      batch: ids.map((id) => ({ id, version: "1.0.0" })),
    });
    expect(outcome.failed.failure?.code).toBe("disk_full");
    expectSettledForward(
      outcome,
      ids.map((id) => [id, "1.0.0"]),
    );
  });

  it("refreshes a copied link the full disk stopped, once there is room", async () => {
    const outcome = await fillUpAt("lock-written", {
      before: [{ id: "tools", version: "1.0.0" }],
      batch: [
        {
          id: "tools",
          version: "2.0.0",
          // larger than the page the old copy frees when it is taken away
          files: {
            "skills/pdf/SKILL.md": skillFile(
              "pdf",
              "The pdf skill, version two.",
              "",
              "x".repeat(64 * 1024),
            ),
          },
        },
      ],
      linkCopyOf: "tools",
    });
    expect(outcome.failed.failure?.code).toBe("disk_full");
    expectSettledForward(outcome, [["tools", "2.0.0"]]);
    expect(outcome.linkFaults).toEqual([]);
    expect(outcome.copied).toContain("version two");
  });
});
