import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { skillFile, testEnvironment } from "@skillshelf/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const generated = join(here, "readme-host.generated.ts");
afterAll(() => rmSync(generated, { force: true }));

/** The README's complete host as written, its home made a test's. */
function completeHost(home: string, configDir: string): string {
  const readme = readFileSync(join(here, "..", "README.md"), "utf8");
  const start = readme.indexOf("```ts", readme.indexOf("## A complete host"));
  const code = readme.slice(readme.indexOf("\n", start) + 1, readme.indexOf("```", start + 5));
  const placed = code.replace(
    'environment: { host: "claude-code" },',
    `environment: { host: "claude-code", home: ${JSON.stringify(home)}, configDir: ${JSON.stringify(configDir)}, env: {} },`,
  );
  expect(placed).not.toBe(code);
  return `${placed}\nexport { onOperatorMessage, systemPrompt };\n`;
}

describe("the resources README's complete host", () => {
  it("lists skills, invokes one by name with its arguments, and refuses one the user cannot start", async () => {
    const { home, cwd, configDir } = testEnvironment({
      project: {
        ".claude/skills/deploy/SKILL.md": skillFile("deploy", "Deploy the app.", "", "Ship it.\n"),
        ".claude/skills/watchdog/SKILL.md": skillFile(
          "watchdog",
          "Model only.",
          "user-invocable: false\n",
        ),
        ".claude/commands/review.md": "---\ndescription: Review a file\n---\nReview $1.\n",
      },
    });
    writeFileSync(generated, completeHost(home, configDir));
    const host = (await import(generated)) as {
      systemPrompt(cwd: string): string;
      onOperatorMessage(text: string, cwd: string): string;
    };
    expect(host.systemPrompt(cwd)).toContain("deploy");
    const invoked = host.onOperatorMessage("/skill deploy to staging", cwd);
    expect(invoked).toContain("<skill_instructions>\nShip it.\n");
    expect(invoked.endsWith("ARGUMENTS: to staging")).toBe(true);
    expect(host.onOperatorMessage("/skill watchdog", cwd)).toContain("skill_not_user_invocable");
    expect(host.onOperatorMessage("/review src/app.ts", cwd)).toBe("Review src/app.ts.\n");
    expect(host.onOperatorMessage("hello", cwd)).toBe("hello");
  });
});
