import { join } from "node:path";
import type { Environment } from "@skillshelf/core";

/**
 * How one agent records the skills it invoked in its own session logs: where the logs are, which
 * files, and what one line (a JSON value) says was invoked. One entry per agent; adding an agent
 * is adding an entry.
 */
export interface SessionLogFormat {
  /** The agent of the agent table whose logs these are. */
  readonly agent: string;
  /** The folder its logs are in, at any depth. */
  readonly folder: (environment: Pick<Environment, "home" | "env">) => string;
  /** Which files below it are logs: their names end so. */
  readonly fileSuffix: string;
  /** Every line recording an invocation contains this text; no other line is parsed. */
  readonly marker: string;
  /** The skill names one line says were invoked (`plugin:skill` as the agent wrote it). */
  readonly invoked: (line: unknown) => readonly string[];
  /** Where the format is published, or why it is read only as far as it is stable. */
  readonly source: string;
}

/** The agents whose session logs record which skills were invoked, and how. */
export const SESSION_LOG_FORMATS: readonly SessionLogFormat[] = [
  {
    agent: "claude-code",
    folder: ({ home, env }) => join(env.CLAUDE_CONFIG_DIR ?? join(home, ".claude"), "projects"),
    fileSuffix: ".jsonl",
    marker: '"Skill"',
    // an assistant line whose content calls the Skill tool: `{ name: "Skill", input: { skill } }`
    invoked: (line) =>
      field(line, "type") === "assistant"
        ? items(field(field(line, "message"), "content")).flatMap((item) =>
            field(item, "type") === "tool_use" && field(item, "name") === "Skill"
              ? text(field(field(item, "input"), "skill"))
              : [],
          )
        : [],
    source:
      "code.claude.com/docs/en/hooks (the Skill tool's input, { skill }); the transcript around it is not documented, so only that call is read and every other line is skipped",
  },
  {
    agent: "codex",
    folder: ({ home, env }) => join(env.CODEX_HOME ?? join(home, ".codex"), "sessions"),
    fileSuffix: ".jsonl",
    marker: "<skill>",
    // the skill's instructions as Codex injects them: a user message `<skill>\n<name>…</name>…`
    invoked: (line) => {
      const payload = field(line, "payload");
      if (field(line, "type") !== "response_item" || field(payload, "role") !== "user") return [];
      return items(field(payload, "content")).flatMap((item) => {
        const body = field(item, "text");
        const named =
          typeof body === "string" ? /^<skill>\n<name>([^<\n]+)<\/name>/.exec(body) : null;
        return named?.[1] === undefined ? [] : [named[1]];
      });
    },
    source:
      "github.com/openai/codex codex-rs/protocol (RolloutLine, written by codex-write-rollout-line-schema; a skill's instructions as ArtificialMessage::Skill)",
  },
  {
    agent: "copilot",
    folder: ({ home }) => join(home, ".copilot", "session-state"),
    fileSuffix: "events.jsonl",
    marker: "skill.invoked",
    invoked: (line) =>
      field(line, "type") === "skill.invoked" ? text(field(field(line, "data"), "name")) : [],
    source:
      "github.com/github/copilot-sdk session events (skill.invoked, { name, path }), as Copilot CLI writes them to session-state/<id>/events.jsonl",
  },
];

// --- internal ---

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function items(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string[] {
  return typeof value === "string" && value !== "" && value.length <= 256 ? [value] : [];
}
