import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { skillFile, testEnvironment, writeTree } from "@skillshelf/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "./_run.js";

/** The README's harness example, as written, with its project and home made real. */
function readmeExample(project: string, home: string): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const start = readme.indexOf("```ts\nimport { createSkillCache, loadSkills");
  const code = readme.slice(readme.indexOf("\n", start) + 1, readme.indexOf("```", start + 5));
  const placed = code.replace(
    "cwd: process.cwd(), // the project the harness works in",
    `cwd: ${JSON.stringify(project)}, home: ${JSON.stringify(home)}, env: {},`,
  );
  expect(placed).not.toBe(code);
  return `${placed}\nexport { diagnostics, listing, visible };\n`;
}

const generated = join(dirname(fileURLToPath(import.meta.url)), "readme-example.generated.ts");
afterAll(() => rmSync(generated, { force: true }));

describe("the README's harness example (issue 30, item 1)", () => {
  it("lists the host's own skills and the user's, and says what it keeps from the model", async () => {
    const { home, cwd, configDir } = testEnvironment({
      project: {
        ".claude/skills/deploy/SKILL.md": skillFile("deploy", "Deploy the app."),
        ".agents/skills/onboarding/SKILL.md": skillFile("onboarding", "Onboard someone."),
      },
    });
    writeTree(join(configDir, "skills"), { "notes/SKILL.md": skillFile("notes", "Take notes.") });
    writeFileSync(generated, readmeExample(cwd, home));
    const example = (await import(generated)) as {
      visible: { name: string }[];
      listing: string;
      diagnostics: { code: string; details?: { sources?: string[] } }[];
    };
    expect(example.visible.map((skill) => skill.name)).toEqual(["deploy", "notes"]);
    expect(example.listing).toContain("deploy");
    expect(example.listing).toContain("notes");
    expect(example.listing).not.toContain("onboarding");
    const hidden = example.diagnostics.filter((one) => one.code === "untrusted_hidden");
    expect(hidden.map((one) => one.details?.sources)).toEqual([["agents"]]);
  });
});
