import { join } from "node:path";
import { loadSkills } from "@skillshelf/skills-loader";
import { skillFile, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("skills in folders whose names start with a dot (issue 30, item 6)", () => {
  const { home, cwd, configDir } = testEnvironment({
    home: {
      ".config/skillshelf/skills/.curated/pdf/SKILL.md": skillFile("pdf", "Read PDFs."),
      ".config/skillshelf/skills/.cache/notes.txt": "not a skill\n",
      ".config/skillshelf/skills/plain/SKILL.md": skillFile("plain", "A plain skill."),
      ".codex/skills/.system/skill-creator/SKILL.md": skillFile("skill-creator", "Make skills."),
    },
  });

  it("are read where the agent table says the agent reads them (Codex's .system), and skipped with a word elsewhere", () => {
    const { items, diagnostics } = loadSkills({ cwd, home, env: {}, host: "codex" });
    expect(items.map((skill) => [skill.name, skill.trusted])).toEqual([
      ["plain", true],
      ["skill-creator", true],
    ]);
    expect(
      diagnostics.filter((one) => one.code === "dot_folder_skipped").map((one) => one.path),
    ).toEqual([join(configDir, "skills", ".curated")]);
  });

  it("are read under a root that names them", () => {
    const { items } = loadSkills({
      cwd,
      home,
      env: {},
      roots: [
        {
          path: join(configDir, "skills"),
          scope: "user",
          source: "harness",
          origin: "harness",
          precedence: 30,
          trust: "trusted",
          dotFolders: [".curated"],
        },
      ],
    });
    expect(items.map((skill) => skill.name)).toEqual(["pdf", "plain"]);
  });
});
