import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { auditTree } from "@skillshelf/audit";
import { writeBenchSkill } from "./cli-bench.js";
import { type BenchOptions, median, medianRatio, timeSideBySide, verdict } from "./measure.js";

/**
 * `audit`: `auditTree` over 1,000 generated skills (each a SKILL.md and two
 * reference files) beside reading their bytes with `cat` in the same run: target at most 2×.
 */
export function runAuditBench(options: BenchOptions): string {
  const dir = join(options.workDir, "audit");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const skills = Math.max(10, Math.min(1_000, Math.round(options.count / 10)));
  for (let index = 0; index < skills; index++)
    writeBenchSkill(join(dir, `skill-${index}`), `skill-${index}`, index);
  console.log(`bench: auditing ${skills} skills, ${options.rounds} rounds side by side`);
  let findings = 0;
  const times = timeSideBySide(
    {
      audit: () => {
        findings = auditTree(dir).findings.length;
      },
      cat: () =>
        execFileSync("sh", ["-c", 'find "$1" -type f -exec cat {} + > /dev/null', "sh", dir]),
    },
    options.rounds,
  );
  const ratio = medianRatio(times.audit ?? [], times.cat ?? []);
  return [
    "## Audit",
    "",
    `\`auditTree\` over ${skills} skills (each a SKILL.md and two reference files; every file read whole and judged by every rule, keywords first), in process, beside \`find -exec cat\` of the same files; medians of ${options.rounds} rounds: ${median(times.audit ?? []).toFixed(0)} ms against ${median(times.cat ?? []).toFixed(0)} ms; median ratio ${ratio.toFixed(2)}× (${findings} findings).`,
    `Target: at most 2× reading the bytes: ${verdict(ratio <= 2)}.`,
  ].join("\n");
}
