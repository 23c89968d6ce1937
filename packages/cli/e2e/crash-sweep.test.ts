import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  crashAtWrite,
  gitEnv,
  gitRepo,
  packageTree,
  skillFile,
  testdir,
  writeTree,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type CliRun, runCli } from "../test/_run.js";
import { changeSandbox } from "../test/_sandbox.js";

// Issue 22's crash harness: each change command is killed with SIGKILL right before its Nth
// file-system write (the preload counts them), for N over its writes; after each kill the scope
// must read consistently (verify clean, or naming only a step the next command settles), and the
// next `skillshelf install` must bring back exactly the state before the command or after it.
// CI samples the writes; SKILLSHELF_CRASH_SWEEP=all (`pnpm crash-sweep`) tries every one.

const EVERY = process.env.SKILLSHELF_CRASH_SWEEP === "all";
const SAMPLES = 8;

/** A project to run one scenario in, and the command to kill. */
interface Scenario {
  readonly run: (args: readonly string[], env?: Record<string, string>) => CliRun;
  readonly cwd: string;
  readonly command: readonly string[];
}

/** The package a scenario installs: one plugin with one skill, from a git repository. */
function toolsRepo(): { path: string; next: () => void } {
  const repo = gitRepo([{ tree: packageTree({ id: "tools", version: "1.0.0", skills: ["pdf"] }) }]);
  const next = () => {
    writeTree(repo.path, {
      "plugin.json": packageTree({ id: "tools", version: "2.0.0" })["plugin.json"] as string,
      "skills/pdf/SKILL.md": skillFile("pdf", "The pdf skill, version two."),
    });
    execFileSync("git", ["-C", repo.path, "commit", "-qam", "v2"], { env: gitEnv() });
  };
  return { path: repo.path, next };
}

function project(): Omit<Scenario, "command"> {
  const box = changeSandbox();
  mkdirSync(join(box.cwd, ".git"));
  return {
    cwd: box.cwd,
    run: (args, env = {}) => runCli(args, { cwd: box.cwd, env: { ...box.env, ...env } }),
  };
}

function succeeds(run: CliRun): void {
  expect(run.status, run.stdout + run.stderr).toBe(0);
}

const SCENARIOS: Record<string, () => Scenario> = {
  "install of a collection with --agent": () => {
    const box = project();
    const source = testdir({
      "skills/alpha/SKILL.md": skillFile("alpha", "The alpha skill."),
      "skills/beta/SKILL.md": skillFile("beta", "The beta skill."),
    });
    return {
      ...box,
      command: [
        "install",
        source,
        "--skill",
        "*",
        "--project",
        "--agent",
        "claude-code,codex",
        "--yes",
      ],
    };
  },
  "update with copied links": () => {
    const box = project();
    const repo = toolsRepo();
    succeeds(box.run(["install", `${repo.path}#main`, "--project", "--yes"]));
    succeeds(box.run(["link", "pdf", "--agent", "codex,opencode", "--copy", "--project", "--yes"]));
    succeeds(box.run(["link", "pdf", "--agent", "claude-code", "--project", "--yes"]));
    repo.next();
    return { ...box, command: ["update", "tools", "--project", "--yes"] };
  },
  "remove with links": () => {
    const box = project();
    const repo = toolsRepo();
    succeeds(
      box.run(["install", `${repo.path}#main`, "--project", "--agent", "claude-code", "--yes"]),
    );
    succeeds(box.run(["link", "pdf", "--agent", "codex", "--copy", "--project", "--yes"]));
    return { ...box, command: ["remove", "tools", "--project", "--yes"] };
  },
  "link as copies": () => {
    const box = project();
    const repo = toolsRepo();
    succeeds(box.run(["install", `${repo.path}#main`, "--project", "--yes"]));
    return {
      ...box,
      command: ["link", "pdf", "--agent", "claude-code,codex", "--copy", "--project", "--yes"],
    };
  },
  rollback: () => {
    const box = project();
    const repo = toolsRepo();
    succeeds(
      box.run(["install", `${repo.path}#main`, "--project", "--agent", "claude-code", "--yes"]),
    );
    succeeds(box.run(["link", "pdf", "--agent", "codex", "--copy", "--project", "--yes"]));
    repo.next();
    succeeds(box.run(["update", "tools", "--project", "--yes"]));
    return { ...box, command: ["rollback", "tools", "--project", "--yes"] };
  },
};

/** What a scope holds, as the restore must bring it back: copies by digest, links by key. */
function fingerprint(cwd: string): string {
  const path = join(cwd, ".skillshelf", "packages", "state.json");
  if (!existsSync(path)) return JSON.stringify({ installed: {}, links: [] });
  const state = JSON.parse(readFileSync(path, "utf8")) as {
    installed: Record<string, { contentDigest: string }>;
    disabled: string[];
    links?: Record<string, { mode: string; target: string; digest: string }>;
  };
  return JSON.stringify({
    installed: Object.fromEntries(
      Object.entries(state.installed).map(([id, record]) => [id, record.contentDigest]),
    ),
    disabled: [...state.disabled].sort(),
    links: Object.entries(state.links ?? {}).map(([key, link]) => [key, link.mode, link.digest]),
  });
}

/** The problems `verify` reports. */
function verified(scenario: Scenario): { code: string; path: string }[] {
  const run = scenario.run(["verify", "--json"]);
  expect(run.stderr).not.toContain("internal error");
  const result = JSON.parse(run.stdout) as {
    scopes: { problems: { code: string; path: string }[] }[];
  };
  return result.scopes.flatMap((scope) => scope.problems);
}

/** The writes to kill at: all of them, or a spread of them that always holds the first and the last. */
function points(count: number): number[] {
  if (EVERY || count <= SAMPLES) return Array.from({ length: count }, (_, index) => index + 1);
  return [
    ...new Set(
      Array.from(
        { length: SAMPLES },
        (_, index) => 1 + Math.round((index * (count - 1)) / (SAMPLES - 1)),
      ),
    ),
  ];
}

describe("a change command killed before any of its writes (issue 22)", () => {
  it.each(Object.keys(SCENARIOS))(
    "%s: the scope reads as one state, and install brings back the state before or after",
    (name) => {
      const make = SCENARIOS[name] as () => Scenario;
      // the count of writes, and the states before and after, from a run that is not killed
      const dry = make();
      const before = fingerprint(dry.cwd);
      const countFile = join(testdir(), "count");
      succeeds(dry.run(dry.command, crashAtWrite({ killAt: 0, countFile })));
      const after = fingerprint(dry.cwd);
      expect(after).not.toBe(before);
      const count = Number(readFileSync(countFile, "utf8"));
      expect(count).toBeGreaterThan(5);
      const seen = new Set<string>();
      for (const killAt of points(count)) {
        const scenario = make();
        const killed = scenario.run(scenario.command, crashAtWrite({ killAt }));
        expect(killed.signal, `write ${killAt} of ${count}`).toBe("SIGKILL");
        // before the next change: consistent, or naming only the step it settles
        const pending = verified(scenario).filter(
          (problem) => problem.code !== "operation_pending",
        );
        expect(pending, `write ${killAt} of ${count}`).toEqual([]);
        succeeds(scenario.run(["install", "--project", "--yes"]));
        const restored = fingerprint(scenario.cwd);
        expect([before, after], `write ${killAt} of ${count}`).toContain(restored);
        seen.add(restored === before ? "before" : "after");
        expect(verified(scenario), `write ${killAt} of ${count}`).toEqual([]);
      }
      expect([...seen].sort()).toEqual(["after", "before"]);
      // the full sweep reports what it covered
      if (EVERY) console.log(`crash sweep: ${name}: killed at each of its ${count} writes`);
    },
    600_000,
  );
});
