import type { Environment } from "@skillshelf/core";
import { defaultScope, type PackageScope } from "@skillshelf/store";
import { type CommandInput, scopeValue } from "../command.js";

/**
 * The scope a command changes: `--user` or `--project`; else, for a command naming installed
 * copies (`namesCopies`), wherever the copy is (the plan names it); else the default scope.
 */
export function chosenScope(
  input: CommandInput<{ readonly user: boolean; readonly project: boolean }>,
  environment: Environment,
  namesCopies: boolean,
): PackageScope | undefined {
  const { user, project } = input.values;
  if (user || project) return scopeValue(input, "user");
  return namesCopies ? undefined : defaultScope(environment);
}
