import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readPackageSnapshot } from "@skillshelf/store";
import { cliBin } from "./cli-bench.js";
import { BENCH_GIT_ENV, installedPackages } from "./installed.js";
import { type BenchOptions, median, timeSideBySideAsync, verdict } from "./measure.js";

const COPIES = 1000;

/**
 * Advisories (issue 59, item 4): `skillshelf advisories check` over 1,000 installed copies of
 * real skills, against a feed of 100 advisories (one of which names an installed tree), beside
 * `skillshelf verify` of the same scope, both process start to exit, side by side. Target: at
 * most 1.2× verify.
 */
export async function runAdvisoriesBench(options: BenchOptions): Promise<string> {
  const copies = Math.min(COPIES, Math.max(4, Math.round(options.count)));
  const dir = join(options.workDir, "advisories");
  const environment = installedPackages(options.skills, dir, copies);
  const [first] = readPackageSnapshot(environment).copies;
  const advisories = Array.from({ length: 100 }, (_, index) => ({
    id: `SKS-BENCH-${index}`,
    summary: "Bench advisory.",
    severity: "high",
    published: "2026-12-01T00:00:00Z",
    revoked: {
      digests: [
        index === 0 && first?.record !== undefined
          ? first.record.contentDigest
          : `${"0".repeat(63)}${index % 10}`,
      ],
      sources: [`https://git.example/revoked-${index}/`],
    },
  }));
  // where `advisories add` keeps a feed (policy's `advisoriesDir`)
  const feeds = join(environment.configDir, "advisories");
  mkdirSync(feeds, { recursive: true });
  writeFileSync(
    join(feeds, "bench.json"),
    JSON.stringify({
      name: "bench",
      source: "bench",
      fetchedAt: "2026-12-07T00:00:00Z",
      feed: { version: 1, advisories },
    }),
  );
  const bin = cliBin();
  const run =
    (...args: string[]) =>
    () => {
      try {
        execFileSync(process.execPath, [bin, ...args], {
          cwd: environment.cwd,
          env: { ...BENCH_GIT_ENV, HOME: environment.home, SKILLSHELF_HOME: environment.configDir },
          stdio: "ignore",
        });
      } catch {
        // both exit 1: one copy is revoked
      }
    };
  const times = await timeSideBySideAsync(
    {
      "skillshelf verify": async () => run("verify")(),
      "skillshelf advisories check": async () => run("advisories", "check")(),
    },
    options.rounds,
  );
  const verify = median(times["skillshelf verify"] ?? []);
  const check = median(times["skillshelf advisories check"] ?? []);
  const ratio = check / verify;
  return [
    "## Advisories",
    "",
    `\`skillshelf advisories check\` over ${copies} installed copies of real skills (${options.skills.describe(copies)}) against a feed of 100 advisories, one naming an installed tree, beside \`skillshelf verify\` of the same scope, process start to exit; medians of ${options.rounds} rounds side by side: ${check.toFixed(0)} ms against ${verify.toFixed(0)} ms, ${ratio.toFixed(2)}×.`,
    "",
    `Target: at most 1.2× verify: ${verdict(ratio <= 1.2)}.`,
  ].join("\n");
}
