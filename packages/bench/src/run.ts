// pnpm bench [--count N] [--rounds N] [--only skills,prompts,…,demo] [--skip demo,…] [--write]
// Runs each benchmark suite side by side against its baseline and prints the report (with
// --write, also into RESULTS.md below its marker).
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runAdvisoriesBench } from "./advisories-bench.js";
import { runAgentsBench } from "./agents-bench.js";
import { runAuditBench } from "./audit-bench.js";
import { runBrokenBench } from "./broken-bench.js";
import { runBundleBench } from "./bundle-bench.js";
import { runCatalogBench } from "./catalog-bench.js";
import { runChangesBench } from "./changes-bench.js";
import { cliBin, runCliBench } from "./cli-bench.js";
import { installableSkills } from "./corpus-tree.js";
import { runDemoBench } from "./demo-bench.js";
import { runDigestBench } from "./digest-bench.js";
import { runImportsBench } from "./imports-bench.js";
import { runIndexBench } from "./index-bench.js";
import { runLayoutsBench } from "./layouts-bench.js";
import { runLifecycleBench } from "./lifecycle-bench.js";
import { runMcpBench } from "./mcp-bench.js";
import type { BenchOptions } from "./measure.js";
import { runOfflineBundleBench } from "./offline-bundle-bench.js";
import { runPromptsBench } from "./prompts-bench.js";
import { runRegistriesBench } from "./registries-bench.js";
import { runResourcesBench } from "./resources-bench.js";
import { runRestoreBench } from "./restore-bench.js";
import { runSkillsBench } from "./skills-bench.js";
import { runStartupBench } from "./startup-bench.js";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  // `pnpm bench -- --write` passes the separator through
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    count: { type: "string", default: "10000" },
    rounds: { type: "string", default: "7" },
    only: { type: "string" },
    // the smoke test leaves out the suites that clone the repository or take minutes
    skip: { type: "string" },
    write: { type: "boolean", default: false },
  },
});
const workDir = join(here, "..", ".bench-tmp");
const skills = once(() => installableSkills(join(workDir, "corpus"), cliBin()));
const options: BenchOptions = {
  count: Number(values.count),
  rounds: Number(values.rounds),
  workDir,
  binDir: here,
  get skills() {
    return skills();
  },
};

const machine = `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}.`;
const suites: Record<string, (options: BenchOptions) => string | Promise<string>> = {
  skills: runSkillsBench,
  broken: runBrokenBench,
  prompts: runPromptsBench,
  catalog: runCatalogBench,
  index: runIndexBench,
  resources: runResourcesBench,
  digest: runDigestBench,
  lifecycle: runLifecycleBench,
  restore: runRestoreBench,
  "offline-bundle": runOfflineBundleBench,
  advisories: runAdvisoriesBench,
  cli: runCliBench,
  changes: runChangesBench,
  layouts: runLayoutsBench,
  agents: runAgentsBench,
  registries: runRegistriesBench,
  audit: runAuditBench,
  mcp: runMcpBench,
  imports: runImportsBench,
  bundle: runBundleBench,
  startup: runStartupBench,
  demo: runDemoBench,
};
const only = values.only?.split(",") ?? Object.keys(suites);
const skipped = values.skip?.split(",") ?? [];
if (values.write && (values.only !== undefined || values.skip !== undefined)) {
  console.error("bench: --write records every suite; leave out --only and --skip");
  process.exit(2);
}
const chosen = Object.entries(suites).filter(
  ([name]) => only.includes(name) && !skipped.includes(name),
);
const sections = [machine];
for (const [, suite] of chosen) sections.push(await suite(options));
const report = `${sections.join("\n\n")}\n`;
console.log(`\n${report}`);

/** `make()`'s result, made on the first call only. */
function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

if (values.write) {
  const path = join(here, "..", "RESULTS.md");
  const marker = "<!-- results -->";
  const previous = readFileSync(path, "utf8");
  const head = previous.includes(marker)
    ? previous.slice(0, previous.indexOf(marker) + marker.length)
    : `# Benchmark results\n\n${marker}`;
  writeFileSync(path, `${head}\n\n${report}`);
  console.log(`bench: wrote ${path}`);
}
