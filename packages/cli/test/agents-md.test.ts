import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

const START = "<!-- skillshelf:skills";
const END = "<!-- /skillshelf:skills -->";

/** A project with `names` in its library, each a real-looking skill. */
function projectWith(names: readonly string[]) {
  const box = changeSandbox();
  for (const name of names) {
    const dir = join(box.cwd, ".skillshelf", "skills", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      skillFile(name, `Use when the task involves ${name}: the steps, checks and pitfalls of it.`),
    );
  }
  return box;
}

function json(run: { stdout: string }) {
  return JSON.parse(run.stdout);
}

describe("agents-md and read (issue 60, item 4)", () => {
  it("writes the project's skills between markers, keeps the rest byte for byte, and rewrites in place", async () => {
    const box = projectWith(["pdf", "tidy"]);
    // a skill of the user's own is not the project's to publish
    const own = join(box.configDir, "skills", "diary");
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, "SKILL.md"), skillFile("diary", "Keep my diary."));
    expect(await box.skills()).toContain("diary");
    const agents = join(box.cwd, "AGENTS.md");
    const mine = "# Build\r\n\r\nRun `make` first.  \n\n<!-- a note of ours -->\n";
    writeFileSync(agents, mine);

    const written = await box.run("agents-md", "--json");
    expect(written.status, written.stderr).toBe(0);
    expect(json(written)).toMatchObject({ changed: true, written: true, skills: 2, left: 0 });
    const text = readFileSync(agents, "utf8");
    expect(text.startsWith(mine)).toBe(true);
    expect(text).toContain("<name>pdf</name>");
    expect(text).toContain("<name>tidy</name>");
    expect(text).not.toContain("diary");
    // no path of this machine goes into a committed file
    expect(text).not.toContain(box.cwd);
    expect(text).not.toContain(box.home);
    expect(text).toContain("skillshelf read <name>");

    // the person adds below the block; a rewrite keeps it and changes only what is between
    const after = "\n## Release\nTag, then push.\n";
    writeFileSync(agents, `${text}${after}`);
    expect(json(await box.run("agents-md", "--json")).changed).toBe(false);
    expect((await box.run("agents-md", "--check")).status).toBe(0);
    const third = join(box.cwd, ".skillshelf", "skills", "lint");
    mkdirSync(third, { recursive: true });
    writeFileSync(join(third, "SKILL.md"), skillFile("lint", "Lint the code base."));
    const stale = await box.run("agents-md", "--check", "--json");
    expect(stale.status).toBe(1);
    expect(json(stale)).toMatchObject({ changed: true, written: false });
    expect(readFileSync(agents, "utf8")).toBe(`${text}${after}`);
    expect((await box.run("agents-md")).status).toBe(0);
    const rewritten = readFileSync(agents, "utf8");
    expect(rewritten.startsWith(mine)).toBe(true);
    expect(rewritten.endsWith(after)).toBe(true);
    expect(rewritten).toContain("<name>lint</name>");
    expect(rewritten.split(START)).toHaveLength(2);
  });

  it("fits a budget, saying what it shortened or left out, and refuses unpaired markers and a budget that fits nothing", async () => {
    const box = projectWith(Array.from({ length: 40 }, (_, index) => `skill-${index}`));
    const output = join(testdir(), "AGENTS.md");
    const fitted = await box.run("agents-md", "--output", output, "--budget", "1500", "--json");
    expect(fitted.status, fitted.stderr).toBe(0);
    const result = json(fitted);
    expect(result.shortened.length + result.left).toBeGreaterThan(0);
    const block = readFileSync(output, "utf8");
    const listing = block.slice(block.indexOf("<available_skills>"), block.indexOf(END));
    expect(Buffer.byteLength(listing)).toBeLessThanOrEqual(1500);

    const tiny = await box.run("agents-md", "--output", output, "--budget", "5");
    expect(tiny.status).toBe(1);
    expect(tiny.stderr).toContain("catalog_budget_too_small");
    expect(readFileSync(output, "utf8")).toBe(block);

    const broken = join(testdir(), "AGENTS.md");
    writeFileSync(broken, `# Notes\n${END}\nmore\n`);
    const refused = await box.run("agents-md", "--output", broken);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("agents_md_markers_invalid");
    expect(readFileSync(broken, "utf8")).toBe(`# Notes\n${END}\nmore\n`);
  });

  it("read prints a skill's instructions as activation gives them, and only a skill a model may use", async () => {
    const box = projectWith(["pdf"]);
    writeFileSync(
      join(box.cwd, ".skillshelf", "skills", "pdf", "SKILL.md"),
      "---\nname: pdf\ndescription: Read PDF files.\n---\nRun pdftotext, then read references/tables.md.\n",
    );
    const operatorOnly = join(box.cwd, ".skillshelf", "skills", "deploy");
    mkdirSync(operatorOnly, { recursive: true });
    writeFileSync(
      join(operatorOnly, "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy.\ndisable-model-invocation: true\n---\nShip it.\n",
    );
    const read = await box.run("read", "pdf");
    expect(read.status, read.stderr).toBe(0);
    expect(read.stdout).toContain('<skill_content name="pdf">');
    expect(read.stdout).toContain("Run pdftotext, then read references/tables.md.");
    expect(read.stdout).toContain(join(box.cwd, ".skillshelf", "skills", "pdf"));
    for (const name of ["deploy", "nothing"]) {
      const refused = await box.run("read", name, "--json");
      expect(refused.status).toBe(1);
      expect(json(refused).diagnostics[0].code).toBe("resource_unknown");
    }
  });
});
