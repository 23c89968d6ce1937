import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

/** `days` ago as `YYYY-MM-DD`. */
const dayAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

describe("usage: the unused, and a listing ranked by use (issue 60, item 3)", () => {
  it("lists the skills nothing asked for, and keeps the most used when a budget cuts", async () => {
    const box = changeSandbox();
    const names = ["alpha", "bravo", "charlie", "delta"];
    for (const name of names) {
      const dir = join(box.cwd, ".skillshelf", "skills", name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "SKILL.md"), skillFile(name, `Use for ${name} work of every kind.`));
    }
    // counting off: neither is possible, and the command says how to turn it on
    expect((await box.run("usage", "--unused", "30")).status).toBe(1);
    expect((await box.run("catalog", "--rank", "usage")).status).toBe(2);

    expect((await box.run("usage", "enable")).status).toBe(0);
    const file = join(box.configDir, "usage.jsonl");
    const row = (day: string, skill: string, gets: number) =>
      appendFileSync(file, `${JSON.stringify({ day, skill, gets, reads: 0 })}\n`);
    row(dayAgo(2), "delta", 9);
    row(dayAgo(5), "charlie", 3);
    row(dayAgo(120), "bravo", 40);

    const unused = JSON.parse((await box.run("usage", "--unused", "90", "--json")).stdout);
    expect(unused.unused).toEqual(["alpha", "bravo"]);
    expect(JSON.parse((await box.run("usage", "--unused", "3", "--json")).stdout).unused).toEqual([
      "alpha",
      "bravo",
      "charlie",
    ]);

    // a budget that cannot hold all four keeps the most used, not the first by name
    const whole = JSON.parse((await box.run("catalog", "--json")).stdout);
    const budget = String(Buffer.byteLength(whole.text) - 60);
    const shown = async (...args: string[]) =>
      (
        JSON.parse((await box.run("catalog", "--budget", budget, ...args, "--json")).stdout) as {
          rows: { name: string }[];
        }
      ).rows.map((one) => one.name);
    const plain = await shown();
    const ranked = await shown("--rank", "usage");
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.length).toBeLessThan(4);
    expect(plain).toEqual(["alpha", "bravo", "charlie", "delta"].slice(0, plain.length));
    expect(ranked).toEqual(["bravo", "delta", "charlie", "alpha"].slice(0, ranked.length));
  });

  it("counts what agents' own session logs show was invoked, beside what was served, only once enabled", async () => {
    const box = changeSandbox();
    for (const name of ["pdf", "docx", "lint", "tidy"]) {
      const dir = join(box.cwd, ".skillshelf", "skills", name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "SKILL.md"), skillFile(name, `Use for ${name} work of every kind.`));
    }
    const at = `${dayAgo(1)}T10:00:00.000Z`;
    const write = (path: string, values: unknown[]) => {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, values.map((value) => JSON.stringify(value)).join("\n"));
    };
    const skillCall = (skill: string) => ({
      type: "assistant",
      timestamp: at,
      message: { content: [{ type: "tool_use", name: "Skill", input: { skill } }] },
    });
    write(join(box.home, ".claude", "projects", "-work-app", "a.jsonl"), [
      skillCall("pdf"),
      skillCall("pdf"),
      skillCall("office:docx"),
    ]);
    write(join(box.home, ".codex", "sessions", "2026", "12", "07", "rollout-a.jsonl"), [
      {
        timestamp: at,
        type: "response_item",
        payload: {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "<skill>\n<name>pdf</name>\n<path>/p</path>\nx\n</skill>" },
          ],
        },
      },
    ]);
    write(join(box.home, ".copilot", "session-state", "s1", "events.jsonl"), [
      { type: "skill.invoked", timestamp: at, data: { name: "lint", path: "/p" } },
    ]);
    // the plugin Claude Code names is a package installed here
    const office = join(
      testdir({ "office/SKILL.md": skillFile("office", "Office files.") }),
      "office",
    );
    expect((await box.run("install", office, "--user", "--yes")).status).toBe(0);
    // off: nothing is read, and the command says how to turn it on
    expect((await box.run("usage", "--json")).status).toBe(1);

    expect((await box.run("usage", "enable")).status).toBe(0);
    const usage = JSON.parse((await box.run("usage", "--since", "30d", "--json")).stdout) as {
      logFiles: number;
      skills: {
        skill: string;
        invoked: Record<string, number>;
        plugins?: string[];
        packages?: string[];
      }[];
    };
    expect(usage.logFiles).toBe(3);
    expect(
      usage.skills.map((one) => [one.skill, one.invoked, one.plugins ?? [], one.packages ?? []]),
    ).toEqual([
      ["pdf", { "claude-code": 2, codex: 1 }, [], []],
      ["docx", { "claude-code": 1 }, ["office"], ["office"]],
      ["lint", { copilot: 1 }, [], []],
    ]);
    const unused = JSON.parse((await box.run("usage", "--unused", "30d", "--json")).stdout);
    expect(unused.unused).toEqual(["office", "tidy"]);
    expect((await box.run("usage", "--unused", "30w")).status).toBe(2);
  });
});
