import { type CommandDefinition, defineCommand, type OptionSpec } from "./command.js";
import type { ChangeCommand } from "./commands/change.js";

/** The options every change command takes. */
const REVIEW = {
  "dry-run": { type: "boolean", help: "print the reviewed plan and change nothing" },
  verbose: {
    type: "boolean",
    help: "show every step of a long plan and its outcome, not a summary",
  },
  yes: {
    type: "boolean",
    help: "apply without asking (needed when no one can answer at a terminal)",
  },
} as const satisfies Readonly<Record<string, OptionSpec>>;

const SCOPE_NOTE =
  "\nThe scope is --user or --project; by default the project scope inside a project (a folder\nholding .skillshelf/, or a git work tree) and the user scope elsewhere.";

const AGENT_OPTION = {
  type: "string",
  value: "IDS",
  multiple: true,
  help: "agents from the agent table, comma-separated (claude-code, codex, cursor, …: skillshelf explain --all lists them)",
} as const satisfies OptionSpec;

const APPROVE_OPTION = {
  type: "string",
  value: "RULES",
  multiple: true,
  help: "approve audit findings of these rules, comma-separated (skillshelf audit --rules lists them), for what this change installs",
} as const satisfies OptionSpec;

const FROM_OPTION = {
  type: "string",
  value: "SOURCE",
  help: "every package of the scope installed from this source (a repository, site, registry repository, npm package or folder), with the ids named",
} as const satisfies OptionSpec;

const ALLOW_MCP_COMMAND_OPTION = {
  type: "boolean",
  help: "start an mcp+stdio: server whose command a project lock or an index names (typed ones and your own lock's always start)",
} as const satisfies OptionSpec;

const AUDIT_NOTE =
  "\nEverything staged is audited first (skillshelf audit): a finding at or above high refuses\nits step until you approve its rule, on the terminal or with --approve.";

const runLinks = (command: "link" | "unlink") => async () => {
  const { runLink } = await import("./commands/link.js");
  return (input: Parameters<typeof runLink>[0]) => runLink(input, command);
};

const run = (command: ChangeCommand) => async () => {
  const { runChange } = await import("./commands/change.js");
  return (input: Parameters<typeof runChange>[0]) => runChange(input, command);
};

/** The commands that change a library, each printing its reviewed plan before it applies it. */
export const CHANGE_COMMANDS: readonly CommandDefinition[] = [
  defineCommand({
    name: "install",
    summary: "install packages or skills, or make the scope match its lock",
    description: `Install from an index (kind:name or a bare name), a local folder, a git repository (any
URL, owner/repo for GitHub, a local bare repository; #ref and //subfolder), or an https://
.tar.gz or .zip archive. A folder or repository without a plugin.json is a collection of
skills, found where authors keep them (skills/, agents' folders, a marketplace, folders at the
root, category folders): --skill picks from it, and on a terminal you are asked. A skill that
cannot be installed (two of one name, a link out of the repository) is refused alone. With nothing named, installs
what the scope's lock.json lists (a fresh clone, a new machine); with --from-bundle, what an
offline bundle (skillshelf bundle create) holds: every tree and its signature checked, the
policy applied, nothing fetched.${AUDIT_NOTE}${SCOPE_NOTE}`,
    arguments: "[what…]",
    positionals: { min: 0 },
    options: {
      skill: {
        type: "string",
        value: "NAMES",
        multiple: true,
        help: "the skills to install from a collection, comma-separated: names or their paths in it ('*': all)",
      },
      plugin: {
        type: "string",
        value: "NAMES",
        multiple: true,
        help: "the plugins to install from a repository's marketplace.json, comma-separated",
      },
      "all-or-nothing": {
        type: "boolean",
        help: "install none of a collection's skills when any is refused (default: the rest install)",
      },
      "full-depth": {
        type: "boolean",
        help: "look for a collection's skills in every layout and folder at once, not only the first layout holding some",
      },
      "with-requirements": { type: "boolean", help: "also install what the packages require" },
      force: { type: "boolean", help: "replace a copy that is already installed" },
      frozen: { type: "boolean", help: "refuse any change to the lock (for CI)" },
      agent: AGENT_OPTION,
      approve: APPROVE_OPTION,
      "allow-mcp-command": ALLOW_MCP_COMMAND_OPTION,
      "from-bundle": {
        type: "string",
        value: "FILE",
        help: "restore the scope from this offline bundle, with no network (skillshelf bundle create writes one)",
      },
      team: {
        type: "string",
        value: "NAME",
        help: "install this team's set from the org joined (skillshelf org join); the scope records it for verify",
      },
      channel: {
        type: "string",
        value: "NAME",
        help: "with --team: the set's channel (default: stable)",
      },
      ...REVIEW,
    },
    shared: ["scope", "json", "cwd"],
    exits:
      "0 all asked for is installed (or skipped as no skill: a SKILL.md linking to nothing or without frontmatter), 1 something asked for was refused, declined or failed, 2 usage error",
    load: run("install"),
  }),
  defineCommand({
    name: "update",
    summary: "update installed packages from their recorded sources",
    description: `Fetch each package again from the source it was installed from (the same ref: a branch
moves, a tag or commit does not; --ref changes it) and show what would change in what a model
is given before applying. With no id, every copy of the scope. The replaced tree is kept for
skillshelf rollback. With --check nothing is fetched or written: each package's pinned and
newest commit or version is printed, "up to date" only after comparing (exit 1 when anything
is out of date, for CI).${AUDIT_NOTE}${SCOPE_NOTE}`,
    arguments: "[id…]",
    positionals: { min: 0 },
    options: {
      ref: { type: "string", value: "REF", help: "update to this branch, tag or commit instead" },
      check: {
        type: "boolean",
        help: "only ask each source what it would install now (git ls-remote for a repository); exit 1 when anything is out of date",
      },
      force: { type: "boolean", help: "replace a copy whose files were changed locally" },
      approve: APPROVE_OPTION,
      from: FROM_OPTION,
      "allow-mcp-command": ALLOW_MCP_COMMAND_OPTION,
      ...REVIEW,
    },
    shared: ["scope", "json", "cwd"],
    load: run("update"),
  }),
  ...(["enable", "disable", "remove", "rollback"] as const).map((name) =>
    defineCommand({
      name,
      summary: {
        enable: "enable an installed package",
        disable: "disable an installed package (its resources leave every listing)",
        remove: "remove an installed package, its files and its lock entry",
        rollback: "put back the version an update replaced",
      }[name],
      description: `${
        {
          enable: "Enable an installed package again.",
          disable:
            "Disable an installed package: it stays installed and locked, but none of its resources\nare loaded. Refused when a loadable dependent needs it.",
          remove:
            "Remove an installed package: its folder, its record and its lock entry. Refused when a\nloadable dependent needs it.",
          rollback: "Restore the version of a package that its last update replaced, in one step.",
        }[name]
      }\nSeveral ids change together, in one reviewed plan (a package removed or disabled with\nthe one it needs breaks nothing). Without --user or --project, the copy that counts here is\nchanged.`,
      arguments: "<id…>",
      positionals: { min: 0 },
      options: {
        from: FROM_OPTION,
        ...(name === "enable" || name === "disable"
          ? {
              agent: {
                ...AGENT_OPTION,
                help: `${name} the package's skills for these agents only, in each agent's own switch (Codex, OpenCode); the package stays ${name === "enable" ? "as it is" : "enabled"} for the others`,
              },
            }
          : name === "rollback"
            ? {
                agent: {
                  ...AGENT_OPTION,
                  help: "with no id: put each agent's own switch back as Skillshelf's last write to it (a profile used, disable --agent) found it",
                },
              }
            : {}),
        ...REVIEW,
      },
      shared: ["scope", "json", "cwd"],
      load: run(name),
    }),
  ),
  defineCommand({
    name: "sync-npm",
    summary:
      "install the skills the project's npm dependencies ship, and prune the ones whose dependency left",
    description: `Find the skills the project's installed npm dependencies ship (a package's root SKILL.md,
skills/<name>/SKILL.md, dist/skills/<name>/SKILL.md), install each into the project pinned to
the dependency's version (the registry's integrity checked and locked, audited as any install),
and remove the ones a sync installed whose dependency is no longer one. Each is a reviewed plan.
With --recursive, the dependencies of every package of the workspace too (each found in its own
node_modules or the project's); a workspace package linked in is not a dependency to sync.${AUDIT_NOTE}`,
    options: {
      include: {
        type: "string",
        value: "PKG[#SKILL]",
        multiple: true,
        help: "only these dependencies (or these skills of them), comma-separated",
      },
      exclude: {
        type: "string",
        value: "PKG[#SKILL]",
        multiple: true,
        help: "leave these dependencies (or these skills of them) out, comma-separated",
      },
      recursive: {
        type: "boolean",
        help: "also the dependencies of the workspace's packages (package.json workspaces, pnpm-workspace.yaml)",
      },
      approve: APPROVE_OPTION,
      ...REVIEW,
    },
    shared: ["json", "cwd"],
    exits: "0 in sync, 1 something was refused, declined or failed, 2 usage error",
    load: async () => (await import("./commands/sync-npm.js")).runSyncNpm,
  }),
  defineCommand({
    name: "adopt",
    summary:
      "record skills copied into agents' folders by hand or by another tool, so verify covers them",
    description: `Find the skills in the scope's agent folders (.claude/skills, .agents/skills, …) that
nothing installed accounts for, and record each as a package installed from where it lies and
as that agent's copy of it: one reviewed plan per agent folder, audited as any install. The
folders are not changed; verify then reports any edit of them, and update reads them again. A
symlink (another tool's link) and a name a package already has are left alone and named.${SCOPE_NOTE}`,
    options: { agent: AGENT_OPTION, approve: APPROVE_OPTION, ...REVIEW },
    shared: ["scope", "json", "cwd"],
    exits: "0 nothing left to adopt, 1 something was refused, declined or failed, 2 usage error",
    load: async () => (await import("./commands/adopt.js")).runAdopt,
  }),
  defineCommand({
    name: "preview",
    summary: "look at a skill before installing it: its files, instructions and audit",
    description: `Fetch and stage what install would (the same sources, credentials, mirrors and
limits), audit it, and print each package's files, its skills' instructions as written and the
audit's verdict. Nothing is installed, linked or kept. A collection without --skill lists the
skills it offers.`,
    arguments: "<source>",
    positionals: { min: 1, max: 1 },
    options: {
      skill: {
        type: "string",
        value: "NAMES",
        multiple: true,
        help: "the skills of a collection to preview, comma-separated ('*': all)",
      },
    },
    shared: ["json", "cwd"],
    exits: "0 shown, 1 the audit would refuse it or the source offers nothing, 2 usage error",
    load: async () => (await import("./commands/preview.js")).runPreview,
  }),
  defineCommand({
    name: "profile",
    summary: "named subsets of skills, each agent set to exactly one of them",
    description: `profile create NAME --skill a,b (or --team T: the skills installed from a team's set)
keeps a named subset in the scope (a project's
profiles.json is committed); profile list shows them (* the one you use here); profile show NAME
says, per agent here, whether its listing budget keeps every skill of it whole; profile use NAME
[--agent …] turns every other skill off in each agent's own switch (Codex's [[skills.config]] in
~/.codex/config.toml, OpenCode's skills.enabled in its opencode.json), keeping the file's own
content, and turns back on what a profile used before turned off. Which profile you use and
what Skillshelf wrote stay in your user library, never in the repository. profile optional
--skill a,b marks a project's skills optional (in its profiles.json): installed with it, they
reach a contributor's agents only when the profile they use names them (each agent's own switch,
skillshelf mcp, agents-md), never through a project link; --remove makes them required again.
Exits 1 when an agent's budget would cut a skill of the profile.`,
    arguments: "[list | create NAME | show NAME | use NAME | optional]",
    positionals: { min: 0, max: 2 },
    options: {
      skill: {
        type: "string",
        value: "NAMES",
        multiple: true,
        help: "with create: the skills of the profile; with optional: the skills to mark, comma-separated",
      },
      remove: { type: "boolean", help: "with optional: make the skills required again" },
      team: {
        type: "string",
        value: "NAME",
        help: "with create: the skills installed here from this team's set of the org joined",
      },
      channel: {
        type: "string",
        value: "NAME",
        help: "with --team: the set's channel (default: stable)",
      },
      agent: AGENT_OPTION,
    },
    shared: ["scope", "json", "cwd"],
    exits:
      "0 done, 1 an agent's budget cuts a skill of the profile or a file does not read, 2 usage error",
    load: async () => (await import("./commands/profile.js")).runProfile,
  }),
  defineCommand({
    name: "link",
    summary: "link skills or prompt templates into other agents' folders",
    description: `Expose a skill or prompt template of this scope (the library's own, or an installed
package's) in other agents' folders of the same scope: a relative symlink in, say,
.claude/skills/<name>, or a copy with --copy (also where a symlink cannot be made). Links are
recorded in the state and the lock: remove and unlink take them away, update keeps them
current, install on a fresh clone makes them again, verify checks them. Nothing that
Skillshelf did not make is ever replaced.${SCOPE_NOTE}`,
    arguments: "<name…>",
    positionals: { min: 1 },
    options: {
      agent: AGENT_OPTION,
      "all-agents": {
        type: "boolean",
        help: "every agent whose folder already exists in the scope",
      },
      copy: { type: "boolean", help: "write copies instead of symlinks" },
      ...REVIEW,
    },
    shared: ["scope", "json", "cwd"],
    exits: "0 linked or already in place, 1 refused, declined or failed, 2 usage error",
    load: runLinks("link"),
  }),
  defineCommand({
    name: "unlink",
    summary: "take away links Skillshelf made",
    description: `Take away the links to each named skill or prompt template (only those into --agent when
given). A copy edited since it was made, or a link re-pointed, is left as it is and refused.${SCOPE_NOTE}`,
    arguments: "<name…>",
    positionals: { min: 1 },
    options: { agent: AGENT_OPTION, ...REVIEW },
    shared: ["scope", "json", "cwd"],
    load: runLinks("unlink"),
  }),
  defineCommand({
    name: "trust",
    summary: "give a model a foreign package or another agent's folder, bound to its content",
    description: `Trust an installed foreign package (an imported Claude Code plugin), an agent's folders in
the scope (an agent id such as claude-code), or one such folder (its path) for the model. It is
audited first, as an install is (--approve RULE for findings at or above high), and bound to
the digest of its content: list, catalog, explain and resources give it to a model while its
content is the same, and any change takes the trust back and says so (trust_revoked). Kept in
the scope's trust.json. With nothing named, lists what is trusted and whether it holds.

An MCP skills server's source (mcp+stdio:… or mcp+https://…, with a skill's path or
without for every skill it serves) approves its skills for skillshelf mcp --upstream to
relay: each is fetched, checked against its listed digests and audited, and the approval is
bound to exactly the files and digests listed.${SCOPE_NOTE}`,
    arguments: "[package-id | agent | folder | mcp-source]",
    positionals: { min: 0, max: 1 },
    options: { approve: APPROVE_OPTION },
    shared: ["scope", "json", "cwd"],
    exits: "0 trusted (or everything listed holds), 1 refused or revoked, 2 usage error",
    load: async () => (await import("./commands/trust.js")).runTrust,
  }),
  defineCommand({
    name: "untrust",
    summary: "take back what trust gave",
    description: `Take back the trust given to a package, an agent's folders or one folder, whether or not
it still exists.${SCOPE_NOTE}`,
    arguments: "<package-id | agent | folder | mcp-source>",
    positionals: { min: 1, max: 1 },
    shared: ["scope", "json", "cwd"],
    load: async () => (await import("./commands/trust.js")).runUntrust,
  }),
  defineCommand({
    name: "import",
    summary: "install a Claude Code plugin as a foreign package",
    description: `Install a Claude Code plugin folder (.claude-plugin/plugin.json) as a package of format
claude-code. It is foreign: its skills are hidden from models until you trust it (skillshelf
trust <id>).${AUDIT_NOTE}${SCOPE_NOTE}`,
    arguments: "<claude-plugin-path>",
    positionals: { min: 1, max: 1 },
    options: {
      force: { type: "boolean", help: "replace a copy that is already installed" },
      approve: APPROVE_OPTION,
      ...REVIEW,
    },
    shared: ["scope", "json", "cwd"],
    load: run("import"),
  }),
];
