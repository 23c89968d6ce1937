import { isSkillshelfError } from "@skillshelf/core";
import { safeLine } from "./format.js";
import { type CliIo, UsageError } from "./io.js";

const VERSION = "0.0.0";

export const USAGE = `Usage: skillshelf <command> [options]

Skillshelf manages the skills, prompts and agents that coding agents load, across Claude Code,
Codex, OpenCode, Copilot, pi and the shared .agents folders.

Commands:
  catalog     print the skill listing a model would be given, fitted to a budget
  list        list the effective skills, prompts, agents or fleets, where each comes from,
              and what a model can see
  prompt      expand a prompt template with arguments
  search      search the package indexes and show what is installed where
  show        show one skill and every copy that competed for its name
  sources     list, add or remove the package indexes a scope uses
  validate    check skills, prompt templates, agent recipes, fleet contracts, packages and
              package indexes

Run "skillshelf <command> --help" for a command's options.
`;

type Command = {
  readonly usage: () => Promise<string>;
  readonly run: (args: readonly string[], io: CliIo) => Promise<number>;
};

// each command is imported only when it runs, so start-up stays fast
const COMMANDS: Readonly<Record<string, Command>> = {
  catalog: {
    usage: async () => (await import("./commands/catalog.js")).CATALOG_USAGE,
    run: async (args, io) => (await import("./commands/catalog.js")).runCatalog(args, io),
  },
  list: {
    usage: async () => (await import("./commands/list.js")).LIST_USAGE,
    run: async (args, io) => (await import("./commands/list.js")).runList(args, io),
  },
  show: {
    usage: async () => (await import("./commands/show.js")).SHOW_USAGE,
    run: async (args, io) => (await import("./commands/show.js")).runShow(args, io),
  },
  prompt: {
    usage: async () => (await import("./commands/prompt.js")).PROMPT_USAGE,
    run: async (args, io) => (await import("./commands/prompt.js")).runPrompt(args, io),
  },
  search: {
    usage: async () => (await import("./commands/search.js")).SEARCH_USAGE,
    run: async (args, io) => (await import("./commands/search.js")).runSearch(args, io),
  },
  sources: {
    usage: async () => (await import("./commands/sources.js")).SOURCES_USAGE,
    run: async (args, io) => (await import("./commands/sources.js")).runSources(args, io),
  },
  validate: {
    usage: async () => (await import("./commands/validate.js")).VALIDATE_USAGE,
    run: async (args, io) => (await import("./commands/validate.js")).runValidate(args, io),
  },
};

/**
 * Run the command line and return the exit status: 0 ok, 1 failure or invalid, 2 usage error.
 * User mistakes print a message and what to do next, never a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? COMMANDS[args[0] ?? ""] : undefined;
    io.stdout(topic === undefined ? USAGE : await topic.usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr(`skillshelf: unknown command "${safeLine(name)}"\n\n${USAGE}`);
    return 2;
  }
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(await command.usage());
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    return report(error, io, name, (await command.usage()).split("\n")[0] ?? "");
  }
}

// --- internal ---

function report(error: unknown, io: CliIo, command: string, usage: string): number {
  if (error instanceof UsageError) {
    io.stderr(
      `skillshelf: ${safeLine(error.message)}\n${usage}\nRun "skillshelf ${command} --help" for its options.\n`,
    );
    return 2;
  }
  if (isSkillshelfError(error)) {
    const where = error.path === undefined ? "" : ` (${safeLine(error.path)})`;
    const hint = error.hint === undefined ? "" : `\nhint: ${safeLine(error.hint)}`;
    io.stderr(`skillshelf: ${error.code}: ${safeLine(error.message)}${where}${hint}\n`);
    return 1;
  }
  const detail =
    io.env.SKILLSHELF_DEBUG === "1" && error instanceof Error ? `\n${error.stack}` : "";
  io.stderr(
    `skillshelf: internal error: ${error instanceof Error ? error.message : String(error)}${detail}\nThis is a bug in skillshelf; please report it (SKILLSHELF_DEBUG=1 shows the stack).\n`,
  );
  return 1;
}
