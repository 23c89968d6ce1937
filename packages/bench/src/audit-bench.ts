import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { analyzeCode, auditTree, createCodeParsers } from "@skillshelf/audit";
import { cliBin } from "./cli-bench.js";
import { writeCorpusTree } from "./corpus-tree.js";
import {
  type BenchOptions,
  median,
  medianRatio,
  timeSideBySide,
  timeSideBySideAsync,
  verdict,
} from "./measure.js";

/**
 * `audit` of 1,000 real skills (the corpus's, repeated under new names), process start to exit
 * as a user runs `skillshelf audit DIR`, beside `cat` of the same files in the same run: target at
 * most 2×. The in-process figure (`auditTree` then `analyzeCode`) is given beside it.
 */
export async function runAuditBench(options: BenchOptions): Promise<string> {
  const dir = join(options.workDir, "audit");
  rmSync(dir, { recursive: true, force: true });
  const count = Math.max(10, Math.min(1_000, Math.round(options.count / 10)));
  const tree = writeCorpusTree(dir, count);
  console.log(`bench: auditing ${count} real skills, ${options.rounds} rounds side by side`);
  const bin = cliBin();
  const cat = () =>
    execFileSync("sh", ["-c", 'find "$1" -type f -exec cat {} + > /dev/null', "sh", dir]);
  const process = timeSideBySide(
    {
      audit: () => {
        // exit 1 when it finds something: a result, not a failure
        try {
          execFileSync(globalThis.process.execPath, [bin, "audit", dir, "--json"], {
            stdio: "ignore",
          });
        } catch {}
      },
      cat,
    },
    options.rounds,
  );
  let findings = 0;
  const parsers = createCodeParsers();
  const inProcess = await timeSideBySideAsync(
    {
      audit: async () => {
        findings = (await analyzeCode(auditTree(dir), parsers)).findings.length;
      },
      cat: async () => cat(),
    },
    options.rounds,
  );
  const ratio = medianRatio(process.audit ?? [], process.cat ?? []);
  const inRatio = medianRatio(inProcess.audit ?? [], inProcess.cat ?? []);
  return [
    "## Audit",
    "",
    `\`skillshelf audit\` over ${tree.skills} real skills (the corpus's, repeated under new names: ${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB; code parsed and judged), process start to exit, beside \`find -exec cat {} +\` of the same files; medians of ${options.rounds} rounds: ${median(process.audit ?? []).toFixed(0)} ms against ${median(process.cat ?? []).toFixed(0)} ms; median ratio ${ratio.toFixed(2)}× (${findings} findings). In process (\`auditTree\` then \`analyzeCode\`, grammars loaded once): ${median(inProcess.audit ?? []).toFixed(0)} ms, ${inRatio.toFixed(2)}×.`,
    `Target: at most 2× reading the bytes, process start to exit: ${verdict(ratio <= 2)}.`,
  ].join("\n");
}
