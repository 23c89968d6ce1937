import { createDiagnostic, type Diagnostic, type PackageScope } from "@skillshelf/core";
import {
  type CopyInspection,
  inspectCopy,
  parseResourceKey,
  readInventory,
} from "@skillshelf/inventory";
import { originText } from "../_origin.js";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import {
  displayPath,
  formatDiagnostic,
  formatTable,
  type Paint,
  type PathStyle,
  painter,
  safeLine,
} from "../format.js";

/**
 * One installed copy's facts: its state, tree digests, record and origin, every resource in it
 * with the loaders' verdict, its other components and requirements. Named by package id (the copy
 * that counts, or the scope given) or by a resource key from `inventory`, which names the copy
 * owning it. Exit 0 when found, 1 when not.
 */
export function runInspect(
  input: CommandInput<{
    readonly user: boolean;
    readonly project: boolean;
    readonly json: boolean;
  }>,
): number {
  const { io } = input;
  const context = input.context();
  const { environment } = context;
  const [name = ""] = input.positionals;
  const scope: PackageScope | undefined = input.values.project
    ? "project"
    : input.values.user
      ? "user"
      : undefined;
  const target = copyNamed(environment, name, scope);
  const inspection =
    "problem" in target
      ? undefined
      : inspectCopy({ environment, id: target.id, scope: target.scope });
  if (inspection === undefined) {
    const problem =
      "problem" in target
        ? target.problem
        : createDiagnostic(
            "error",
            "not_installed",
            `no copy of ${name} is installed${scope === undefined ? "" : ` in the ${scope} scope`}`,
            { details: { id: name } },
          );
    if (input.values.json) printJson(io, context, { diagnostics: [publicDiagnostic(problem)] });
    else
      io.stderr(
        `skillshelf: ${formatDiagnostic(problem, context.style, painter(io.color)).replace(/^error /, "")}`,
      );
    return 1;
  }
  if (input.values.json) printJson(io, context, { inspection });
  else io.stdout(inspectionText(inspection, context.style, painter(io.color)));
  return 0;
}

// --- internal ---

/** The copy a name means: a package id as given, or the owner of the resource a key names. */
function copyNamed(
  environment: Parameters<typeof readInventory>[0]["environment"],
  name: string,
  scope: PackageScope | undefined,
):
  | { readonly id: string; readonly scope: PackageScope | undefined }
  | { readonly problem: Diagnostic } {
  if (parseResourceKey(name) === undefined) return { id: name, scope };
  const found = readInventory({
    environment,
    filter: { ref: name },
    include: { packages: false },
  });
  const [copy] = found.copies;
  if (copy !== undefined) return { id: copy.id, scope: copy.scope };
  return {
    problem: createDiagnostic(
      "error",
      found.resources.length === 0 ? "resource_unknown" : "not_installed",
      found.resources.length === 0
        ? `no resource has the key ${name}`
        : `${name} is not in an installed package: it is a loose resource`,
      { details: { key: name } },
    ),
  };
}

function inspectionText(inspection: CopyInspection, style: PathStyle, paint: Paint): string {
  const { copy } = inspection;
  const lines = [
    `${paint("bold", safeLine(copy.ref))} ${safeLine(copy.version ?? "")} (${copy.scope}): ${copy.state}${copy.trust === undefined ? "" : `, ${copy.trust}`}`,
    `  folder:    ${copy.dir === undefined ? "-" : displayPath(copy.dir, style)}`,
    `  origin:    ${originText(copy.origin, style)}`,
    `  installed: ${safeLine(copy.installedAt ?? "-")}`,
    `  recorded:  ${copy.recordedDigest ?? "-"}`,
    `  on disk:   ${copy.observedDigest ?? "-"}`,
    "",
    formatTable(
      ["KIND", "NAME", "VALID", "PATH"],
      inspection.resources.map((resource) => [
        resource.kind,
        resource.name,
        resource.valid ? "yes" : "no",
        displayPath(resource.path, style),
      ]),
      paint,
    ).trimEnd(),
  ];
  for (const component of inspection.components)
    lines.push(
      `  component ${safeLine(component.kind)}:${safeLine(component.id)} ${safeLine(component.path)}`,
    );
  for (const need of inspection.requires)
    lines.push(
      `  requires ${safeLine(need.ref)}: ${need.met ? "met" : paint("yellow", "not met")}`,
    );
  const findings = [
    ...inspection.diagnostics,
    ...inspection.resources.flatMap((resource) => resource.diagnostics),
  ];
  return `${lines.join("\n")}\n${findings.map((finding) => formatDiagnostic(finding, style, paint)).join("")}`;
}
