import { statSync } from "node:fs";
import { resolve } from "node:path";
import { type Diagnostic, type Environment, resolveEnvironment } from "@skillshelf/core";
import type { PathStyle } from "./format.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./usage-error.js";

/** What every command works in: the environment of `--cwd` (its project found), and how to show its paths. */
export interface CommandContext {
  readonly environment: Environment;
  readonly style: PathStyle;
}

/** Resolve `--cwd` (relative to the process's folder; it must exist) and the environment around it. */
export function commandContext(cwdOption: string | undefined, io: CliIo): CommandContext {
  const cwd = resolve(io.cwd, cwdOption ?? ".");
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError("usage_invalid_value", `--cwd ${cwdOption ?? cwd}: no such folder`);
  const environment = resolveEnvironment({ cwd, env: io.env });
  return { environment, style: { cwd, home: environment.home } };
}

/** A diagnostic as the versioned JSON outputs carry it: `{severity, code, message, path?, line?, column?, hint?}`. */
export function publicDiagnostic(diagnostic: Diagnostic): Omit<Diagnostic, "details"> {
  const { details: _details, ...shown } = diagnostic;
  return shown;
}

/** Write a versioned JSON result: `{"version":1,"project":…,…}`. */
export function printJson(io: CliIo, context: CommandContext, body: Record<string, unknown>): void {
  io.stdout(
    `${JSON.stringify({ version: 1, project: context.environment.project, ...body }, null, 2)}\n`,
  );
}
