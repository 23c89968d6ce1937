import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "@skillshelf/core";
import {
  changeStageOptions,
  type LifecyclePlan,
  planLifecycle,
  releasePlan,
} from "@skillshelf/lifecycle";
import { describeSource } from "@skillshelf/sources";
import { defaultScope } from "@skillshelf/store";
import { auditLines } from "../_plan-text.js";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter, plural, safeBlock, safeLine } from "../format.js";

/** Files listed per package at most, and the bytes of each skill file shown. */
const MAX_FILES = 200;
const MAX_SKILL_BYTES = 256 * 1024;
/** What a plan says about installing that a preview, which installs nothing, leaves out. */
const NOT_FOR_PREVIEW = new Set(["install_not_linked"]);

type PreviewValues = { readonly json: boolean; readonly skill?: readonly string[] };

/** One package previewed: where from, its digest, its files, its skills' instructions, its audit. */
interface Previewed {
  readonly ref: string;
  readonly source: string;
  readonly digest: string;
  readonly files: readonly { readonly path: string; readonly bytes: number }[];
  readonly skills: readonly { readonly path: string; readonly text: string }[];
  readonly audit: NonNullable<LifecyclePlan["steps"][number]["audit"]> | undefined;
  readonly refusal?: { readonly code: string; readonly message: string } | undefined;
}

/**
 * `preview SOURCE [--skill NAME]`: fetch and stage what `install` would, audit it, and print each
 * package's files, its skills' instructions (SKILL.md as written) and the audit's verdict;
 * nothing is installed, linked or kept. A collection without `--skill` lists what it offers.
 * Exit 1 when the audit would refuse it, or the source offers nothing.
 */
export async function runPreview(input: CommandInput<PreviewValues>): Promise<number> {
  const { io, values } = input;
  const [source = ""] = input.positionals;
  const context = input.context();
  const { environment } = context;
  const scope = defaultScope(environment);
  const skills = (values.skill ?? [])
    .flatMap((names) => names.split(","))
    .filter((one) => one !== "");
  const plan = await planLifecycle({
    environment,
    operation: "install",
    targets: [source],
    scope,
    force: true,
    keepStaging: true,
    ...(skills.length === 0 ? {} : { skills }),
    stage: changeStageOptions(environment, scope, { texts: [source], allowMcpCommand: false }),
  });
  try {
    const previewed = plan.steps.flatMap((step): Previewed[] =>
      step.source === undefined
        ? []
        : [
            {
              ref: step.ref,
              source: describeSource(step.source.source),
              digest: step.source.digest,
              files: filesOf(step.source.dir),
              skills: skillFiles(step.source.dir),
              audit: step.audit,
              ...(step.refusal === undefined
                ? {}
                : { refusal: { code: step.refusal.code, message: step.refusal.message } }),
            },
          ],
    );
    // a collection asked for no skill: what it offers, to pick from
    const offered = plan.steps.flatMap((step) =>
      step.refusal?.code === "collection_choice_required"
        ? ((step.refusal.details?.skills as { name: string; description: string }[] | undefined) ??
          [])
        : [],
    );
    const refused = previewed.some((one) => one.refusal?.code === "audit_refused");
    const ok = !refused && (previewed.length > 0 || offered.length > 0);
    if (values.json) {
      printJson(io, context, {
        ok,
        packages: previewed,
        offered,
        diagnostics: plan.diagnostics
          .filter((diagnostic) => !NOT_FOR_PREVIEW.has(diagnostic.code))
          .map(publicDiagnostic),
      });
      return ok ? 0 : 1;
    }
    const paint = painter(io.color);
    if (offered.length > 0)
      io.stdout(
        `${safeLine(source)} offers ${plural(offered.length, "skill")} (preview one with --skill NAME):\n${offered
          .map((one) => `  ${safeLine(one.name)}: ${safeLine(one.description)}\n`)
          .join("")}`,
      );
    for (const one of previewed) {
      io.stdout(
        `${safeLine(one.ref)} from ${safeLine(one.source)} (sha256 ${one.digest.slice(0, 12)}…)\n  files: ${plural(one.files.length, "file")}\n${one.files.map((file) => `    ${safeLine(file.path)} (${file.bytes} bytes)\n`).join("")}`,
      );
      if (one.audit !== undefined) io.stdout(`${auditLines(one.audit, paint).join("\n")}\n`);
      if (one.refusal !== undefined)
        io.stdout(`  would be refused: ${one.refusal.code}: ${safeLine(one.refusal.message)}\n`);
      for (const skill of one.skills)
        io.stdout(`\n--- ${safeLine(skill.path)} ---\n${safeBlock(skill.text)}\n`);
    }
    for (const diagnostic of plan.diagnostics)
      if (diagnostic.severity !== "info" && !NOT_FOR_PREVIEW.has(diagnostic.code))
        io.stderr(formatDiagnostic(diagnostic, context.style, paint));
    return ok ? 0 : 1;
  } finally {
    releasePlan(plan);
  }
}

// --- internal ---

/** Every file under `dir` (no link followed), relative, with its size; at most `MAX_FILES`. */
function filesOf(dir: string): { path: string; bytes: number }[] {
  const found: { path: string; bytes: number }[] = [];
  const walk = (prefix: string) => {
    for (const name of readdirSync(join(dir, prefix)).sort()) {
      if (found.length >= MAX_FILES) return;
      const path = prefix === "" ? name : `${prefix}/${name}`;
      if (path === ".git") continue;
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) walk(path);
      else found.push({ path, bytes: stat.size });
    }
  };
  walk("");
  return found;
}

/** Each `SKILL.md` of the package as written (its first 256 KiB; one over 16 MiB is refused by the read). */
function skillFiles(dir: string): { path: string; text: string }[] {
  return filesOf(dir)
    .filter((file) => file.path === "SKILL.md" || file.path.endsWith("/SKILL.md"))
    .map((file) => ({
      path: file.path,
      text: readRegularFile(join(dir, file.path), 16 * 1024 * 1024)
        .subarray(0, MAX_SKILL_BYTES)
        .toString("utf8"),
    }));
}
