import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { writeFileAtomic } from "@skillshelf/core";
import { type SbomFormat, scopeSbom } from "@skillshelf/inventory/sbom";
import { PACKAGE_SCOPES } from "@skillshelf/store";
import { VERSION } from "../_version.js";
import { type CommandInput, scopeValue } from "../command.js";
import { displayPath } from "../format.js";

/**
 * `sbom`: a CycloneDX 1.6 (or `--format spdx`: SPDX 2.3) JSON bill of materials of the installed
 * packages (both scopes, or the one named), on stdout or into `--output`.
 */
export function runSbom(
  input: CommandInput<{
    readonly user: boolean;
    readonly project: boolean;
    readonly output: string | undefined;
    readonly format: SbomFormat | undefined;
  }>,
): number {
  const context = input.context();
  const { environment } = context;
  const scopes =
    input.values.user || input.values.project ? [scopeValue(input, "user")] : [...PACKAGE_SCOPES];
  const text = scopeSbom({
    environment,
    scopes,
    tool: { name: "skillshelf", version: VERSION },
    format: input.values.format,
  });
  const output = input.values.output;
  if (output === undefined) {
    input.io.stdout(text);
    return 0;
  }
  const path = resolve(environment.cwd, output);
  // a file already there is replaced whole, never half-written
  const before = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  writeFileAtomic({ path, text, expected: before });
  input.io.stdout(`wrote ${displayPath(path, context.style)}\n`);
  return 0;
}
