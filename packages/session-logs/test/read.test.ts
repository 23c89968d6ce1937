import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { MAX_LINE_BYTES, readSessionLogs } from "../src/index.js";

const lines = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join("\n");

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A Claude Code transcript: the Skill tool called by the assistant, as the hooks document its input. */
function claudeTranscript(): string {
  return lines(
    {
      type: "user",
      timestamp: "2026-12-01T09:00:00.000Z",
      message: { role: "user", content: "make a pdf" },
    },
    {
      type: "assistant",
      timestamp: "2026-12-01T09:00:05.000Z",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "Loading the skill." },
          { type: "tool_use", id: "toolu_1", name: "Skill", input: { skill: "pdf" } },
        ],
      },
    },
    {
      type: "assistant",
      timestamp: "2026-12-02T10:00:00.000Z",
      message: {
        content: [
          { type: "tool_use", id: "toolu_2", name: "Skill", input: { skill: "doc-tools:docx" } },
        ],
      },
    },
    // the word alone is no invocation: another tool searching for it
    {
      type: "assistant",
      timestamp: "2026-12-02T10:01:00.000Z",
      message: {
        content: [{ type: "tool_use", name: "Grep", input: { pattern: "Skill" } }],
      },
    },
    // long before the day asked from
    {
      type: "assistant",
      timestamp: "2025-01-01T00:00:00.000Z",
      message: { content: [{ type: "tool_use", name: "Skill", input: { skill: "old" } }] },
    },
  );
}

/** A Codex rollout: the skill's instructions injected as a user message. */
function codexRollout(): string {
  return lines(
    {
      timestamp: "2026-12-03T08:00:00.000Z",
      type: "session_meta",
      payload: { id: "s1", cwd: "/p" },
    },
    {
      timestamp: "2026-12-03T08:00:01.000Z",
      type: "response_item",
      payload: {
        type: "message",
        role: "user",
        content: [
          {
            type: "input_text",
            text: "<skill>\n<name>pdf</name>\n<path>/p/.agents/skills/pdf/SKILL.md</path>\nRead PDFs.\n</skill>",
          },
        ],
      },
    },
    // a person writing about the tag is not Codex injecting a skill
    {
      timestamp: "2026-12-03T08:00:02.000Z",
      type: "response_item",
      payload: {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "what is <skill>?" }],
      },
    },
  );
}

/** Copilot CLI's events: `skill.invoked` with the skill's name and path. */
function copilotEvents(): string {
  return lines(
    { type: "session.start", timestamp: "2026-12-04T07:00:00.000Z", data: { sessionId: "c1" } },
    {
      type: "skill.invoked",
      id: "e2",
      timestamp: "2026-12-04T07:00:03.000Z",
      data: { name: "lint", path: "/p/.github/skills/lint/SKILL.md" },
    },
  );
}

describe("readSessionLogs (issue 60, item 3)", () => {
  it("reads each agent's invocations in its own format, from the day asked, and skips the rest", () => {
    const home = testdir();
    write(
      join(home, ".claude", "projects", "-p", "s1.jsonl"),
      `${claudeTranscript()}\n{"broken": "Skill"\n`,
    );
    write(join(home, ".codex", "sessions", "2026", "12", "03", "rollout-1.jsonl"), codexRollout());
    write(join(home, ".copilot", "session-state", "c1", "events.jsonl"), copilotEvents());
    const read = readSessionLogs({ home, env: {} }, { since: "2026-11-01" });
    expect(read.files).toBe(3);
    expect(
      read.invocations.map((one) => [one.agent, one.plugin ?? "", one.skill, one.day]),
    ).toEqual([
      ["claude-code", "", "pdf", "2026-12-01"],
      ["claude-code", "doc-tools", "docx", "2026-12-02"],
      ["codex", "", "pdf", "2026-12-03"],
      ["copilot", "", "lint", "2026-12-04"],
    ]);
    // the search for the word, the person writing the tag and the broken line (the old call is
    // an invocation, left out by its day)
    expect(read.skipped).toBe(3);
  });

  it("honours CODEX_HOME and CLAUDE_CONFIG_DIR, opens no file older than the day asked, and follows no symlink", () => {
    const home = testdir();
    const codexHome = testdir();
    const claudeHome = testdir();
    write(join(codexHome, "sessions", "2026", "12", "03", "rollout-1.jsonl"), codexRollout());
    write(join(claudeHome, "projects", "-p", "s1.jsonl"), claudeTranscript());
    // logs elsewhere, linked in: never read
    const elsewhere = testdir();
    write(join(elsewhere, "s2.jsonl"), claudeTranscript());
    symlinkSync(elsewhere, join(claudeHome, "projects", "linked"));
    const env = { CODEX_HOME: codexHome, CLAUDE_CONFIG_DIR: claudeHome };
    expect(readSessionLogs({ home, env }).files).toBe(2);
    // a file last changed before the day asked is not opened
    const old = new Date("2025-06-01T00:00:00Z");
    utimesSync(join(claudeHome, "projects", "-p", "s1.jsonl"), old, old);
    const recent = readSessionLogs({ home, env }, { since: "2026-01-01", agents: ["claude-code"] });
    expect(recent).toEqual({ invocations: [], files: 0, skipped: 0 });
  });

  it("reads a log a chunk at a time: a line across a chunk's end counts, one past the line limit is dropped", () => {
    const home = testdir();
    const call = (skill: string, pad = "") =>
      JSON.stringify({
        type: "skill.invoked",
        timestamp: "2026-12-04T07:00:00.000Z",
        data: { name: skill, path: "/p", pad },
      });
    // filler up to just before the first 1 MiB chunk ends, so the next line straddles it
    const filler = `${"x".repeat(1023)}\n`.repeat(1023);
    const straddling = call("across");
    const overlong = call("huge", "y".repeat(MAX_LINE_BYTES));
    write(
      join(home, ".copilot", "session-state", "c1", "events.jsonl"),
      `${filler}${"z".repeat(1000)}\n${straddling}\n${overlong}\n${call("after")}`,
    );
    const read = readSessionLogs({ home, env: {} });
    expect(read.invocations.map((one) => one.skill)).toEqual(["across", "after"]);
  });
});
