import {
  AGENTS,
  PACKAGE_KINDS,
  RESOURCE_FOLDERS,
  RESOURCE_KINDS,
  type ResourceKind,
} from "@skillshelf/core";
import { type CommandDefinition, defineCommand } from "./command.js";
import { CHANGE_COMMANDS } from "./commands-change.js";
import { CHECK_COMMANDS } from "./commands-check.js";
import type { ListKind } from "./listings/rows.js";

/** `--agent` takes an agent's id or one of its aliases. */
const AGENT_CHOICES = AGENTS.flatMap((agent) => [agent.id, ...(agent.aliases ?? [])]);

/** The kinds `list` and `show` take: every resource folder name, and (for list) installed packages. */
const LIST_KINDS: readonly (ListKind | "all")[] = [...RESOURCE_FOLDERS, "packages", "all"];

/** A kind named in the singular, as `--kind skill`. */
const SINGULAR: Readonly<Record<string, string>> = Object.fromEntries(
  [...RESOURCE_FOLDERS, "packages"].map((plural) => [plural.slice(0, -1), plural]),
);

/** What `validate` can be told a path holds. */
const VALIDATE_KINDS: readonly (ResourceKind | "package" | "index" | "org")[] = [
  ...RESOURCE_KINDS,
  "package",
  "index",
  "org",
];

/** The commands that read. */
const READ_COMMANDS: readonly CommandDefinition[] = [
  defineCommand({
    name: "catalog",
    summary: "print the skill listing a model would be given, fitted to a budget",
    description:
      "Print the skill listing a model would be given here: the skills it may use, installed\npackages' included, narrowed by a query, paged, and fitted to a byte budget.",
    options: {
      query: {
        type: "string",
        value: "Q",
        help: "keep the skills matching every word of Q (or, failing that, any word)",
      },
      budget: {
        type: "string",
        value: "BYTES",
        help: "fit the listing into this many UTF-8 bytes",
        integer: { min: 0 },
      },
      offset: {
        type: "string",
        value: "N",
        help: "start at the Nth matching skill (default 0)",
        integer: { min: 0 },
      },
      limit: {
        type: "string",
        value: "N",
        help: "show at most N skills",
        integer: { min: 1, max: 200 },
      },
      format: {
        type: "string",
        value: "FORMAT",
        help: "text (default), xml (the Agent Skills <available_skills> form) or markdown",
        choices: ["text", "xml", "markdown"],
      },
      shorten: {
        type: "boolean",
        help: "shorten the longest descriptions to fit more skills before dropping any",
      },
      rank: {
        type: "string",
        value: "BY",
        help: "usage: the skills asked for most (skillshelf usage) first, so a budget drops the least used",
        choices: ["usage"],
      },
      installable: {
        type: "boolean",
        help: "also list installed packages providing skills (with their state) and what the indexes offer that is not installed",
      },
      agent: {
        type: "string",
        value: "ID",
        help: "the listing that agent would give its model: its skills, format and budget (skillshelf explain says why)",
        choices: AGENT_CHOICES,
      },
    },
    shared: ["json", "cwd"],
    load: async () => (await import("./commands/catalog.js")).runCatalog,
  }),
  defineCommand({
    name: "list",
    summary: "list the effective skills, prompts, agents, fleets or installed packages",
    description:
      "List the effective resources of a kind: for each name the copy in use, where it comes from\n(an installed package's carry its id), and what it shadows. Other agents' folders are\ndiscovery-only: listed, never shown to a model.",
    options: {
      kind: {
        type: "string",
        value: "KIND",
        help: "skills (default), prompts, agents, fleets, packages (installed copies) or all",
        choices: LIST_KINDS,
        aliases: SINGULAR,
      },
      all: { type: "boolean", help: "also list the copies that lost a name clash" },
    },
    shared: ["json", "cwd"],
    load: async () => (await import("./commands/list.js")).runList,
  }),
  defineCommand({
    name: "prompt",
    summary: "expand a prompt template with arguments",
    description:
      "Expand a prompt template (an installed package's too) with arguments and print the\nresult, or print the card of a display-only template. Options go before the name;\neverything after it is the template's.",
    arguments: "<name> [args…]",
    positionals: { min: 1 },
    passThrough: true,
    options: {
      "allow-untrusted": {
        type: "boolean",
        help: "expand a template from another agent's folder too",
      },
    },
    shared: ["json", "cwd"],
    exits: "0 expanded, 1 unknown, unavailable or untrusted template, 2 usage error",
    load: async () => (await import("./commands/prompt.js")).runPrompt,
  }),
  defineCommand({
    name: "explain",
    summary: "say what each agent would load from here, and what its listing budget cuts",
    description: `For each agent of the agent table (or the one named), what it would load from this folder
and why: its skill folders in its own order (the first holding a name wins it), the winner of
every name, what is shadowed and by what, what it would refuse by its own rules, what its
model is not given (disable-model-invocation, the agent's own settings where Skillshelf reads
them), and which descriptions its listing budget would shorten and which skills it would drop.
Each agent's rules and budget come from the agent table, with their sources.`,
    options: {
      agent: {
        type: "string",
        value: "ID",
        help: "explain this agent only",
        choices: AGENT_CHOICES,
      },
      all: {
        type: "boolean",
        help: "every agent of the table, also those with no folder here (the default shows those with one)",
      },
      check: {
        type: "boolean",
        help: "exit 1 when an agent's budget would drop a skill or cut a description below --min-description",
      },
      "min-description": {
        type: "string",
        value: "N",
        help: "with --check, the shortest a cut description may be (default 100 characters)",
        integer: { min: 0 },
      },
    },
    shared: ["json", "cwd"],
    exits:
      "0 explained (with --check: nothing cut past the threshold), 1 with --check: something is, 2 usage error",
    load: async () => (await import("./commands/explain.js")).runExplain,
  }),
  defineCommand({
    name: "mcp",
    summary: "serve the library's skills and prompts to MCP clients (SEP-2640)",
    description:
      "Serve the trusted, model-visible skills of this folder's library (the user library alone\nwith --user) to any MCP client as SEP-2640 skills: skills/list, skills/get, every file as\na skill:// resource with its sha256 digest, directory reads; and its trusted prompt\ntemplates as MCP prompts. Over stdio by default (stdout carries only MCP messages), or\nStreamable HTTP on loopback with --http (on another --host, every client must send the\nbearer token of --token-file, or the one made and shown once). A change on disk is seen\nby the next list, and clients are told within --poll-ms.\n\nWith --upstream NAME=SOURCE (an mcp+stdio: or mcp+https:// server, repeatable) it is a\ngateway: each upstream skill is served as skill://NAME/<its path>/SKILL.md, only once you\napproved exactly the files and digests it lists (skillshelf trust SOURCE: fetched, audited,\nbound to those digests); one whose listing changed is withheld until approved again, every\nread is checked against its digest, and the policy applies to each upstream. With usage\ncounting on (skillshelf usage enable), what clients ask for is counted in a local file.",
    options: {
      http: {
        type: "string",
        value: "PORT",
        help: "serve Streamable HTTP on PORT (0: a free one) instead of stdio",
        integer: { min: 0, max: 65535 },
      },
      host: {
        type: "string",
        value: "HOST",
        help: "listen on HOST instead of 127.0.0.1 (with --http); off loopback, clients need the token",
      },
      "token-file": {
        type: "string",
        value: "FILE",
        help: "require the bearer token in FILE of every client (with --http; off loopback one is made and shown once when none is given)",
      },
      "allow-host": {
        type: "string",
        value: "NAME,…",
        help: "also answer requests naming these hosts (the name clients reach the server by)",
      },
      "page-size": {
        type: "string",
        value: "N",
        help: "skills per skills/list page (default 100)",
        integer: { min: 1, max: 10000 },
      },
      "poll-ms": {
        type: "string",
        value: "MS",
        help: "read the library again every MS to tell clients of changes (default 2000; 0: never)",
        integer: { min: 0 },
      },
      upstream: {
        type: "string",
        value: "NAME=SOURCE",
        multiple: true,
        help: "also serve the approved skills of this MCP skills server under NAME (a gateway)",
      },
      "allow-changes": {
        type: "boolean",
        help: "also serve install, update, enable, disable and remove as tools; each change is put to the person at the client (MCP elicitation) and applied only on their yes",
      },
    },
    shared: ["scope", "cwd"],
    exits: "0 the client went away or the server was interrupted, 2 usage error",
    load: async () => (await import("./commands/mcp.js")).runMcp,
  }),
  defineCommand({
    name: "search",
    summary: "search the package indexes and show what is installed where",
    description:
      "Search every package index (the user's and the project's library.yaml and added sources,\nand --from indexes) for packages whose name, description,\ncategory, triggers or provided resources match the query, and show where each is installed.",
    arguments: "<query…>",
    positionals: { min: 1 },
    options: {
      kind: {
        type: "string",
        value: "KIND",
        help: "a package kind (a plugin providing that kind matches too)",
        choices: PACKAGE_KINDS,
      },
      from: { type: "string", value: "INDEX", help: "also search this index file", multiple: true },
    },
    shared: ["json", "cwd"],
    load: async () => (await import("./commands/search.js")).runSearch,
  }),
  defineCommand({
    name: "show",
    summary: "show one resource and every copy that competed for its name",
    description:
      "Show one skill, prompt template, agent recipe or fleet contract: the copy in use, and every\ncopy that competed for its name, best first, with the rule that decided between each and\nthe winner.",
    arguments: "<name>",
    positionals: { min: 1, max: 1 },
    options: {
      kind: {
        type: "string",
        value: "KIND",
        help: "skills (default), prompts, agents or fleets",
        choices: RESOURCE_FOLDERS,
        aliases: SINGULAR,
      },
    },
    shared: ["json", "cwd"],
    exits: "0 found, 1 no resource of that name, 2 usage error",
    load: async () => (await import("./commands/show.js")).runShow,
  }),
  defineCommand({
    name: "read",
    summary: "print one skill's instructions, for an agent that loads skills through AGENTS.md",
    description:
      "Print a skill's instructions as a model is given them when it uses the skill (its body in\n<skill_content>, with the folder its other files are in). Only skills a model may use here\nare read. skillshelf agents-md tells agents that read only AGENTS.md to run it.",
    arguments: "<name>",
    positionals: { min: 1, max: 1 },
    shared: ["json", "cwd"],
    exits: "0 printed, 1 no skill a model may use is named so, 2 usage error",
    load: async () => (await import("./commands/read.js")).runRead,
  }),
  defineCommand({
    name: "agents-md",
    summary: "write the project's skills into AGENTS.md for agents without skills of their own",
    description:
      "Write an <available_skills> block of the project's skills (its library and its packages,\nnot anyone's own) into AGENTS.md, between markers: rewritten in place, everything outside\nthem kept byte for byte. It fits --budget bytes (descriptions shortened first, then skills\nleft out, and said), names no local paths, and tells the model to run skillshelf read <name>.\nFor agents that read only AGENTS.md.",
    options: {
      output: {
        type: "string",
        value: "FILE",
        help: "write into FILE instead of the project's AGENTS.md",
      },
      budget: {
        type: "string",
        value: "BYTES",
        help: "the most the block's listing may take, in UTF-8 bytes (default 8000)",
        integer: { min: 0 },
      },
      check: {
        type: "boolean",
        help: "write nothing; exit 1 when the file is not up to date (for CI)",
      },
    },
    shared: ["json", "cwd"],
    exits:
      "0 written or up to date, 1 not up to date (--check), the budget fits nothing, or the markers are unpaired, 2 usage error",
    load: async () => (await import("./commands/agents-md.js")).runAgentsMd,
  }),
  defineCommand({
    name: "sources",
    summary: "list, add, remove or update the package indexes a scope uses",
    description:
      'Manage the package indexes a scope searches and installs from. Each scope has its own\nlibrary.yaml; "add" names more: a local index file (library.yaml, marketplace.json) or a\nfolder holding one, a git repository holding one (owner/repo, any git URL, #ref), or an\nhttps:// URL of an index file. Remote ones are fetched into the user library\'s cache and\nchecked before they are added; "update" fetches them again. Indexes are merged in order:\nuser, project, --from; a later row replaces an earlier one of the same kind and name.',
    arguments: "list | add <source> | remove <source> | update [source]",
    positionals: { min: 1, max: 2 },
    shared: ["scope", "json", "cwd"],
    load: async () => (await import("./commands/sources.js")).runSources,
  }),
  defineCommand({
    name: "validate",
    summary: "check skills, prompts, agents, fleets, packages and package indexes",
    description:
      "Check resources, packages and package indexes: a SKILL.md, a skill folder or a folder of\nthem; a prompt template; an agent recipe; a fleet contract; a package folder (plugin.json,\nor a Claude Code plugin's .claude-plugin/plugin.json); an index (library.yaml,\nlibrary.json, marketplace.json); an org's org.yaml (docs/org.md). The kind is told by the\npath unless --kind says it.",
    arguments: "<path…>",
    positionals: { min: 1 },
    options: {
      kind: { type: "string", value: "KIND", help: "what the paths hold", choices: VALIDATE_KINDS },
      strict: {
        type: "boolean",
        help: "skills: the Agent Skills specification; other kinds: warnings count as errors",
      },
      "strict-keys": {
        type: "boolean",
        help: "with --strict, skill keys outside the specification are errors, not warnings",
      },
    },
    shared: ["json", "cwd"],
    exits: "0 valid, 1 invalid, 2 usage error",
    load: async () => (await import("./commands/validate.js")).runValidate,
  }),
];

/** Every command, as data, by name; each implementation is imported only when it runs. */
export const COMMANDS: readonly CommandDefinition[] = [
  ...READ_COMMANDS,
  ...CHANGE_COMMANDS,
  ...CHECK_COMMANDS,
].sort((a, b) => (a.name < b.name ? -1 : 1));
