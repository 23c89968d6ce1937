import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchWorkspace } from "./_scratch.js";

const LIST = join("packages", "cli", "src", "commands", "list.ts");
const DEFINITIONS = join("packages", "cli", "src", "commands.ts");

describe("a command's options are typed from its definition", () => {
  const workspace = scratchWorkspace("skillshelf-options-");

  it("a command reading an option its definition lacks fails to compile at the definition", () => {
    workspace.edit(
      LIST,
      "    readonly all: boolean;",
      "    readonly all: boolean;\n    readonly everything: boolean;",
    );
    const errors = workspace.typeErrors();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(DEFINITIONS);
    expect(errors[0]).toContain("everything");
  });

  it("so does one reading an option as another type", () => {
    workspace.edit(LIST, "    readonly everything: boolean;\n", "");
    workspace.edit(LIST, "    readonly all: boolean;", "    readonly all: number | undefined;");
    const errors = workspace.typeErrors().filter((line) => line.includes(DEFINITIONS));
    expect(errors).toHaveLength(1);
  });
});
