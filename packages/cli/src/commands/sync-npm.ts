import { npmPruned, npmSkills, readSynced, recordSynced } from "@skillshelf/lifecycle";
import type { CommandInput } from "../command.js";
import { plural, safeLine } from "../format.js";
import { type ChangeValues, runChange } from "./change.js";

type SyncValues = Omit<ChangeValues, "json" | "user" | "project"> & {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
};

/**
 * `sync-npm`: install, into the project, the skills its installed npm dependencies ship, each
 * pinned to the dependency's version (one reviewed plan, as `install` makes it), then remove the
 * ones a sync installed whose dependency left (another plan). Exit 1 when either did not apply.
 */
export async function runSyncNpm(input: CommandInput<SyncValues>): Promise<number> {
  const { io, values } = input;
  const context = input.context();
  const { environment } = context;
  const list = (option: readonly string[] | undefined) =>
    (option ?? []).flatMap((value) => value.split(",")).filter((one) => one !== "");
  const skills = npmSkills(environment, {
    include: list(values.include),
    exclude: list(values.exclude),
  });
  const pruned = npmPruned(environment, skills);
  io.stdout(
    `${plural(skills.length, "skill")} in the project's npm dependencies${skills.length === 0 ? "" : `: ${skills.map((one) => `${safeLine(one.dependency)}#${safeLine(one.skill)}`).join(", ")}`}; ${plural(pruned.length, "package")} whose dependency left\n`,
  );
  const project = { ...input, values: { ...values, json: false, project: true, user: false } };
  let status = 0;
  if (skills.length > 0) {
    status = await runChange(
      { ...project, positionals: skills.map((one) => one.source) },
      "install",
    );
    if (status === 0 && values["dry-run"] !== true)
      recordSynced(environment, [...readSynced(environment), ...skills.map((one) => one.skill)]);
  }
  if (pruned.length > 0) {
    const removed = await runChange({ ...project, positionals: pruned }, "remove");
    if (removed === 0 && values["dry-run"] !== true)
      recordSynced(
        environment,
        readSynced(environment).filter((id) => !pruned.includes(id)),
      );
    status = Math.max(status, removed);
  }
  return status;
}
