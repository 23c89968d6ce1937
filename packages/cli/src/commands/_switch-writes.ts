import type { SwitchWrite } from "@skillshelf/lifecycle";
import { displayPath, plural } from "../format.js";
import type { CliIo } from "../io.js";

/** What writing agents' own switches did, one line per agent. */
export function printWrites(
  io: CliIo,
  style: Parameters<typeof displayPath>[1],
  writes: readonly SwitchWrite[],
): void {
  for (const write of writes) {
    const what = [
      ...(write.disabled.length === 0 ? [] : [`${plural(write.disabled.length, "skill")} off`]),
      ...(write.enabled.length === 0 ? [] : [`${plural(write.enabled.length, "skill")} back on`]),
    ].join(", ");
    io.stdout(
      `  ${write.agent}: ${write.changed ? `${what} in ${displayPath(write.file, style)}` : "its switch already says so"}\n`,
    );
  }
}
