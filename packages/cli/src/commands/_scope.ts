import type { Environment, PackageScope } from "@skillshelf/core";
import { changeScope } from "@skillshelf/lifecycle";
import { type CommandInput, scopeValue } from "../command.js";

type ScopeFlags = CommandInput<{ readonly user: boolean; readonly project: boolean }>;

/** The scope `--user` or `--project` asks for, if either does. */
export function scopeAsked(input: ScopeFlags): PackageScope | undefined {
  const { user, project } = input.values;
  return user || project ? scopeValue(input, "user") : undefined;
}

/**
 * The scope a command changes: `--user` or `--project`; else, for a command naming installed
 * copies (`namesCopies`), wherever the copy is (the plan names it); else the default scope
 * (lifecycle's `changeScope` decides for every host).
 */
export function chosenScope(
  input: ScopeFlags,
  environment: Environment,
  namesCopies: boolean,
): PackageScope | undefined {
  return changeScope(environment, scopeAsked(input), namesCopies);
}
