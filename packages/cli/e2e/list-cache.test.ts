import { execFileSync } from "node:child_process";
import {
  chmodSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli, runMain } from "../test/_run.js";

/** A project of three skills, settled: files two seconds old are kept by the next `list`. */
async function settledProject(): Promise<string> {
  const project = testdir({
    ".skillshelf/skills/alpha/SKILL.md": skillFile("alpha", "The first one."),
    ".skillshelf/skills/group/beta/SKILL.md": skillFile("beta", "The second one."),
    ".skillshelf/skills/group/gamma/SKILL.md": skillFile("gamma", "The third one."),
  });
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  return project;
}

describe("list keeps what it parsed for its next run", () => {
  let project: string;
  let home: string;
  beforeAll(async () => {
    project = await settledProject();
    home = testdir();
  });
  const list = (cache: string, from = home) =>
    runCli(["list", "--json", "--cwd", project], { env: { HOME: from, XDG_CACHE_HOME: cache } });
  const keptFile = (cache: string) => {
    const [name, ...others] = readdirSync(join(cache, "skillshelf"));
    expect(others).toEqual([]);
    return join(cache, "skillshelf", name as string);
  };

  it("in one file of its own, that a second run lists the same from", () => {
    const cache = testdir();
    const first = list(cache);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("The second one.");
    const kept = keptFile(cache);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, "skillshelf")).mode & 0o777).toBe(0o700);
    const second = list(cache);
    expect(second).toEqual(first);
  });

  it("keeps each file's identity and hash for list --all, taken while the file's stamp holds", () => {
    const cache = testdir();
    const all = () =>
      runCli(["list", "--all", "--json", "--cwd", project], {
        env: { HOME: home, XDG_CACHE_HOME: cache },
      });
    const first = all();
    expect(first.status).toBe(0);
    expect(all()).toEqual(first);
    const kept = keptFile(cache);
    const data = JSON.parse(readFileSync(kept, "utf8"));
    expect(data.contents).toHaveLength(3);
    const [realPath, stamp, , hash] = data.contents[0];
    data.contents[0] = [realPath, stamp, "f".repeat(64), hash];
    writeFileSync(kept, JSON.stringify(data), { mode: 0o600 });
    expect(all().stdout).toContain("f".repeat(64));
    // another build's contents are not taken
    data.skills.version = "another build";
    writeFileSync(kept, JSON.stringify(data), { mode: 0o600 });
    expect(all().stdout).toBe(first.stdout);
  });

  it("is what the next run lists an unchanged file from, and a changed file is read again", () => {
    const cache = testdir();
    list(cache);
    const kept = keptFile(cache);
    // what the kept file says of beta is taken while beta's stamp holds: the cache is used
    writeFileSync(kept, readFileSync(kept, "utf8").replaceAll("The second one.", "Kept."), {
      mode: 0o600,
    });
    expect(list(cache).stdout).toContain("Kept.");
    const beta = join(project, ".skillshelf/skills/group/beta/SKILL.md");
    const original = readFileSync(beta, "utf8");
    writeFileSync(beta, skillFile("beta", "Changed since."));
    try {
      const changed = list(cache).stdout;
      expect(changed).toContain("Changed since.");
      expect(changed).not.toContain("Kept.");
    } finally {
      writeFileSync(beta, original);
    }
  });

  it("is not taken when others may write it, through a link, or damaged", () => {
    const fresh = list(testdir()).stdout;
    const forged = (cache: string) => {
      list(cache);
      const kept = keptFile(cache);
      writeFileSync(kept, readFileSync(kept, "utf8").replaceAll("The first one.", "Forged."));
      return kept;
    };
    const writable = testdir();
    chmodSync(forged(writable), 0o664);
    expect(list(writable).stdout).toBe(fresh);
    const linked = testdir();
    const target = forged(linked);
    const moved = `${target}.elsewhere`;
    execFileSync("mv", [target, moved]);
    symlinkSync(moved, target);
    expect(list(linked).stdout).toBe(fresh);
    const damaged = testdir();
    writeFileSync(forged(damaged), "{");
    expect(list(damaged).stdout).toBe(fresh);
    expect(JSON.parse(readFileSync(keptFile(damaged), "utf8"))).toMatchObject({
      skills: { format: 1 },
    });
  });

  it("lives under ~/.cache without an absolute XDG_CACHE_HOME, and not at all without a build", async () => {
    const other = testdir();
    list("relative/cache", other);
    expect(readdirSync(join(other, ".cache", "skillshelf"))).toHaveLength(1);
    const inProcess = testdir();
    const run = await runMain(["list", "--json", "--cwd", project], {
      env: { HOME: inProcess, XDG_CACHE_HOME: inProcess },
    });
    expect(run.status).toBe(0);
    expect(readdirSync(inProcess)).toEqual([]);
  });

  // last: it changes a file of the project, which is then no longer settled
  it("gives list --json each file's hash as kept, and a listing without hashes keeps them", () => {
    const cache = testdir();
    list(cache);
    const kept = keptFile(cache);
    const data = JSON.parse(readFileSync(kept, "utf8"));
    const alpha = data.contents.findIndex(([realPath]: [string]) =>
      realPath.endsWith(join("alpha", "SKILL.md")),
    );
    data.contents[alpha][3] = "e".repeat(64);
    writeFileSync(kept, JSON.stringify(data), { mode: 0o600 });
    const gamma = join(project, ".skillshelf/skills/group/gamma/SKILL.md");
    const original = readFileSync(gamma, "utf8");
    writeFileSync(gamma, skillFile("gamma", "Changed since."));
    try {
      // a changed file makes a plain listing save what it parsed: the hashes stay
      const plain = runCli(["list", "--cwd", project], {
        env: { HOME: home, XDG_CACHE_HOME: cache },
      });
      expect(plain.status).toBe(0);
      expect(list(cache).stdout).toContain("e".repeat(64));
    } finally {
      writeFileSync(gamma, original);
    }
  });
});

describe("the bin's output", () => {
  it("is coloured on a terminal and plain elsewhere", async () => {
    const project = await settledProject();
    const home = testdir();
    const command = [process.execPath, BIN, "list", "--all", "--cwd", project].join(" ");
    // util-linux's script runs the command on a pseudo-terminal
    const onTerminal = execFileSync("script", ["-qec", command, "/dev/null"], {
      env: { PATH: process.env.PATH ?? "", HOME: home, TERM: "xterm" },
      encoding: "utf8",
    });
    expect(onTerminal).toContain("\u001b[");
    expect(onTerminal).toContain("alpha");
    const piped = runCli(["list", "--all", "--cwd", project], { env: { HOME: home } });
    expect(piped.stdout).toContain("alpha");
    expect(piped.stdout).not.toContain("\u001b[");
  });
});
