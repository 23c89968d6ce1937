import { npmPruned, npmSkills, readSynced, recordSynced } from "@skillshelf/lifecycle";
import type { CommandInput } from "../command.js";
import { plural, safeLine } from "../format.js";
import { type ChangeRun, runChanges } from "./_changes.js";
import type { ChangeValues } from "./change.js";

type SyncValues = Omit<ChangeValues, "user" | "project"> & {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly recursive?: boolean;
};

/**
 * `sync-npm`: install, into the project, the skills its installed npm dependencies ship (with
 * `--recursive`, its workspace packages' too), each pinned to the dependency's version (one
 * reviewed plan, as `install` makes it), then remove the ones a sync installed whose dependency
 * left (another plan). Exit 1 when either did not apply; `--json` prints one document.
 */
export async function runSyncNpm(input: CommandInput<SyncValues>): Promise<number> {
  const { io, values } = input;
  const { environment } = input.context();
  const list = (option: readonly string[] | undefined) =>
    (option ?? []).flatMap((value) => value.split(",")).filter((one) => one !== "");
  const skills = npmSkills(environment, {
    include: list(values.include),
    exclude: list(values.exclude),
    recursive: values.recursive,
  });
  const pruned = npmPruned(environment, skills);
  if (!values.json)
    io.stdout(
      `${plural(skills.length, "skill")} in the project's npm dependencies${skills.length === 0 ? "" : `: ${skills.map((one) => `${safeLine(one.dependency)}#${safeLine(one.skill)}`).join(", ")}`}; ${plural(pruned.length, "package")} whose dependency left\n`,
    );
  const applied = (status: number) => status === 0 && values["dry-run"] !== true;
  const runs: ChangeRun[] = [];
  if (skills.length > 0)
    runs.push({
      command: "install",
      positionals: skills.map((one) => one.source),
      afterwards: (status) => {
        if (applied(status))
          recordSynced(environment, {
            ...readSynced(environment),
            ...Object.fromEntries(skills.map((one) => [one.skill, one.dependency])),
          });
      },
    });
  if (pruned.length > 0)
    runs.push({
      command: "remove",
      positionals: pruned,
      afterwards: (status) => {
        if (applied(status))
          recordSynced(
            environment,
            Object.fromEntries(
              Object.entries(readSynced(environment)).filter(([id]) => !pruned.includes(id)),
            ),
          );
      },
    });
  const head = { skills, pruned };
  return runChanges({ ...input, values: { ...values, project: true, user: false } }, head, runs);
}
