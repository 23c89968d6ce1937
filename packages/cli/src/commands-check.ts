import { AUDIT_SEVERITIES, PACKAGE_KINDS, RESOURCE_KINDS } from "@skillshelf/core";
import { type CommandDefinition, defineCommand } from "./command.js";

/** The commands that check, look after and share a library: verify, doctor, inventory, inspect, new, publish, register, audit. */
export const CHECK_COMMANDS: readonly CommandDefinition[] = [
  defineCommand({
    name: "verify",
    summary: "check every installed copy against its record and the lock (for CI)",
    description:
      "Digest every installed copy of both scopes again and compare it with its install record,\nand each scope's state with its lock.json: edited files (content drift), a missing copy, a\nlock entry the state lacks or the other way round, an audit approval whose files changed.\nA copy whose audit verdict is missing or from an older rule table is audited again. Each\nfinding names the command that fixes it.",
    shared: ["json", "cwd"],
    exits: "0 everything matches, 1 a finding, 2 usage error",
    load: async () => (await import("./commands/verify.js")).runVerify,
  }),
  defineCommand({
    name: "doctor",
    summary: "show the folders in use and what could be wrong with them",
    description:
      "Show the project found, the libraries and agents' folders in use and git, then per scope a\nlock left by a process that died, leftovers of interrupted writes, kept backups, and a state\nor lock file that cannot be read, each with its fix.",
    shared: ["json", "cwd"],
    exits: "0 no error found, 1 an error, 2 usage error",
    load: async () => (await import("./commands/doctor.js")).runDoctor,
  }),
  defineCommand({
    name: "inventory",
    summary: "what the indexes offer, what is installed, and what the loaders admit",
    description:
      "The inventory: packages the indexes offer, the copies installed in both scopes with their\nstate, and the resources the loaders actually admit from each, without bodies and bounded.\nNarrowed to a package ref, a resource key (with the copy and package owning it) or a name.",
    arguments: "[ref]",
    positionals: { min: 0, max: 1 },
    options: {
      kind: {
        type: "string",
        value: "KIND",
        help: "one package or resource kind",
        choices: [...new Set([...PACKAGE_KINDS, ...RESOURCE_KINDS])],
      },
      scope: {
        type: "string",
        value: "SCOPE",
        help: "user or project copies only",
        choices: ["user", "project"],
      },
    },
    shared: ["json", "cwd"],
    load: async () => (await import("./commands/inventory.js")).runInventory,
  }),
  defineCommand({
    name: "inspect",
    summary: "one installed copy's facts: state, digests, origin, resources, requirements",
    description:
      "One installed copy read in full, whatever its state: its tree digests (recorded and on\ndisk), record and origin, every resource in it with the loaders' verdict, its other\ncomponents and whether its requirements are met. Name it by package id, or by a resource\nkey from skillshelf inventory (the copy that owns it).",
    arguments: "<id|resource-key>",
    positionals: { min: 1, max: 1 },
    shared: ["scope", "json", "cwd"],
    exits: "0 found, 1 no such copy or resource, 2 usage error",
    load: async () => (await import("./commands/inspect.js")).runInspect,
  }),
  defineCommand({
    name: "new",
    summary: "scaffold a skill, prompt, agent or fleet that passes validate --strict",
    description:
      "Write a new resource into the scope's library, ready to edit: a skill folder with its\nSKILL.md, a prompt template, an agent recipe or a fleet contract. Never overwrites.",
    arguments: "<name>",
    positionals: { min: 1, max: 1 },
    options: {
      kind: {
        type: "string",
        value: "KIND",
        help: "skill (default), prompt, agent or fleet",
        choices: RESOURCE_KINDS,
      },
    },
    shared: ["scope", "cwd"],
    load: async () => (await import("./commands/new.js")).runNew,
  }),
  defineCommand({
    name: "publish",
    summary: "publish a skill, a collection or a package's skills where a team shares them",
    description:
      "Validate the folder strictly (any error refuses it; nothing is written), then publish its\nskills with their digests: to a static site folder (site:DIR) as\n.well-known/agent-skills/index.json, a lone SKILL.md as it is and any other skill as a\n.tar.gz, ready to copy to any web server or bucket; to an OCI registry\n(oci://HOST/REPOSITORY[:TAG]), each skill a ToolHive skillet artifact at REPOSITORY/NAME;\nor to a git repository (git+URL[//FOLDER][#BRANCH]), committed under skills/NAME, tagged\nNAME@VERSION (the skill's metadata.version, else its package's) and pushed; a library.yaml at\nthe repository's root (or --index FILE) gets each skill's pinned row in the same commit.\nWhatever was published installs back to the same tree digest.",
    arguments: "<folder> <destination>",
    positionals: { min: 2, max: 2 },
    options: {
      "dry-run": {
        type: "boolean",
        help: "list what would be written, with digests, and write nothing",
      },
      sign: {
        type: "string",
        value: "KEY",
        help: "sign each artifact with this SSH key (a private key, or a public key ssh-agent holds); ssh-keygen -Y verify checks it; a git commit is signed as git does",
      },
      index: {
        type: "string",
        value: "FILE",
        help: "for a git repository: the package index in it (a path from its root) to update in the same commit; default its root's library.yaml when it has one",
      },
    },
    shared: ["json", "cwd"],
    exits: "0 published (or, dry, publishable), 1 refused, 2 usage error",
    load: async () => (await import("./commands/publish.js")).runPublish,
  }),
  defineCommand({
    name: "register",
    summary: "write a pinned row for a package into an index (library.yaml)",
    description:
      "Read each folder or source as install does (a package, or each skill of a collection),\nvalidate it, and write its row into the scope's library.yaml (or --index FILE): kind, name,\ndescription, version, the source pinned to the commit or digest fetched (a folder relative to\nthe index), the tree digest as sha256, and requires. A row of the same kind:name is updated;\nits other fields and the file's comments are kept. skillshelf validate on the index then\nreports a local source whose files no longer match the row.",
    arguments: "<path|source…>",
    positionals: { min: 1 },
    options: {
      index: {
        type: "string",
        value: "FILE",
        help: "the index to write instead of the scope's library.yaml",
      },
      skill: {
        type: "string",
        value: "NAMES",
        multiple: true,
        help: "the skills of a collection to register, comma-separated (default: all)",
      },
    },
    shared: ["scope", "json", "cwd"],
    exits: "0 every package registered, 1 something was refused, 2 usage error",
    load: async () => (await import("./commands/register.js")).runRegister,
  }),
  defineCommand({
    name: "sbom",
    summary: "write a CycloneDX or SPDX bill of materials of what is installed",
    description:
      "Write a CycloneDX 1.6 (or, with --format spdx, SPDX 2.3) JSON bill of materials of the\npackages installed in both scopes (or the one named): each with its id, version, package\nURL, SHA-256 tree digest, licence, source, commit, signer, audit verdict and any advisory\nrevoking it; with the org channel in force (its name, source, file digest and fetch time)\nand the advisory feeds checked. The same install gives the same document. Nothing is sent\nanywhere: collect it, or skillshelf inventory --json, with your own tools.",
    options: {
      output: { type: "string", value: "FILE", help: "write it to FILE instead of stdout" },
      format: {
        type: "string",
        value: "FORMAT",
        help: "cyclonedx (default) or spdx",
        choices: ["cyclonedx", "spdx"],
      },
    },
    shared: ["scope", "cwd"],
    load: async () => (await import("./commands/sbom.js")).runSbom,
  }),
  defineCommand({
    name: "policy",
    summary: "show the policy in force and where each rule comes from",
    description:
      "Read policy.yaml from the managed path (/etc/skillshelf/policy.yaml, or\nSKILLSHELF_SYSTEM_POLICY), the org joined (skillshelf org join), the user library and the\nproject library, each only able to tighten the one above, and show every rule in force with\nthe file it came from. Rules: sources.allow, block.packages, block.skills,\naudit.max-severity, allowed-tools.widest, signatures.required and .keys, pins.required,\nmirrors (from/to URL prefixes fetched from an internal mirror instead) and mirror-only. A\nfile that does not read refuses every change.",
    shared: ["json", "cwd"],
    exits: "0 the policy reads, 1 a policy file does not, 2 usage error",
    load: async () => (await import("./commands/policy.js")).runPolicy,
  }),
  defineCommand({
    name: "bundle",
    summary: "write an offline bundle of a scope: lock, trees, verdicts, SBOM, a signature",
    description:
      "Write one .tar.gz holding the scope's lock, every installed package's tree (checked against\nthe lock first), the lock's signers and audit verdicts, a CycloneDX bill of materials and,\nwith --sign, your SSH signature over all of it. skillshelf install --from-bundle FILE\nrestores it on a machine with no network: every digest and the signature are checked, the\npolicy applies, and one changed byte refuses the whole bundle.",
    arguments: "create <file>",
    positionals: { min: 2, max: 2 },
    options: {
      sign: {
        type: "string",
        value: "KEY",
        help: "sign the bundle with this SSH key (a private key, or a .pub your ssh-agent holds)",
      },
    },
    shared: ["scope", "json", "cwd"],
    exits: "0 written, 1 refused (a tree is not what the lock pins), 2 usage error",
    load: async () => (await import("./commands/bundle.js")).runBundle,
  }),
  defineCommand({
    name: "advisories",
    summary: "follow advisory feeds and list the installed copies they revoke",
    description:
      "advisories add <source> follows an advisory feed (an https URL of its JSON, a file, or any\nsource holding advisories.json; with --signer, its SSH signature beside it must verify),\nkept in the user library so every check runs offline. advisories check lists every installed\ncopy a feed revokes by tree digest or source (--sarif for SARIF 2.1.0). A revoked copy is not\ninstalled, verify reports it, and a model no longer sees it; nothing is ever deleted. The\nfeed's format is in docs/advisories.md.",
    arguments: "[add <source> | check]",
    positionals: { min: 0, max: 2 },
    options: {
      name: {
        type: "string",
        value: "NAME",
        help: "the name the feed is kept under (default: default)",
      },
      signer: {
        type: "string",
        value: "KEY",
        help: "the SSH public key (its line, or a .pub file) whose signature the feed must carry",
      },
      sarif: { type: "boolean", help: "with check: print SARIF 2.1.0" },
    },
    shared: ["json", "cwd"],
    exits: "0 done (check: nothing revoked), 1 check found revoked copies, 2 usage error",
    load: async () => (await import("./commands/advisories.js")).runAdvisories,
  }),
  defineCommand({
    name: "org",
    summary: "follow your organisation's channel: policy, mirrors, indexes, advisories, teams",
    description:
      "org join <source> fetches the org's org.yaml (a git repository, an OCI artifact, an https\nURL or a folder) and checks it against the org's SSH key (--signer; its signature beside\nit) or its sha256 (--digest). Its policy applies at the managed file's strength (a user or a\nproject only tightens it), with its mirrors; its indexes are added to your sources and its\nadvisory feeds followed. install --team NAME installs a team's set; verify reports drift\nfrom it. org sync fetches it again; past the org's ttl a change fetches it first, and an org\nthat fails closed refuses changes while it cannot be reached. org status shows what is in\nforce and its age; org leave stops following it. The format is in docs/org.md.",
    arguments: "[join <source> | sync | status | leave]",
    positionals: { min: 0, max: 2 },
    options: {
      signer: {
        type: "string",
        value: "KEY",
        help: "with join: the org's SSH public key (its line, or a .pub file) that signs org.yaml",
      },
      digest: {
        type: "string",
        value: "SHA256",
        help: "with join: the sha256 of org.yaml (sha256:<hex>) when the org pins it instead of signing",
      },
    },
    shared: ["json", "cwd"],
    exits:
      "0 done, 1 refused (not signed by the signer, another digest, an invalid file) or status found the kept org unreadable, 2 usage error",
    load: async () => (await import("./commands/org.js")).runOrg,
  }),
  defineCommand({
    name: "usage",
    summary:
      "see locally which skills are used: served over MCP, invoked in agents' sessions (opt-in)",
    description:
      "Show, per skill, how often MCP clients of skillshelf mcp asked for it (skills/get) and\nread its files (resources/read), and how often agents invoked it as their own session logs on\nthis machine show (Claude Code's transcripts, Codex's rollout files, Copilot CLI's events;\nplugin:skill names keep their plugin), most used first. Nothing is counted or read until\nskillshelf usage enable; skillshelf usage disable stops and forgets. The counts are kept in\nusage.jsonl in the user library, the logs are read where they are, and nothing is sent anywhere.",
    arguments: "[enable | disable]",
    positionals: { min: 0, max: 1 },
    options: {
      since: {
        type: "string",
        value: "DAYS",
        help: "only what was counted in the last DAYS days (30 or 30d)",
        integer: { min: 1, unit: "d" },
      },
      unused: {
        type: "string",
        value: "DAYS",
        help: "list the skills a model may use here that nothing asked for in the last DAYS days (90 or 90d)",
        integer: { min: 1, unit: "d" },
      },
    },
    shared: ["json", "cwd"],
    exits: "0 shown (or switched), 1 counting is off or its file is unsafe, 2 usage error",
    load: async () => (await import("./commands/usage.js")).runUsage,
  }),
  defineCommand({
    name: "audit",
    summary: "read skills and packages for danger, running nothing",
    description:
      "Read every file of the named folders — by default every folder this scope's skills,\nprompts, agents and fleets are read from, installed packages included — and report each\nfinding with its rule, severity, file, line and hint: hidden Unicode, instructions that\nhide actions or override others, download-and-run, credential reads, sending data to a\nhost, paste-site links, allowed-tools wider than needed, binaries, archives and executables.\nNothing is run and no link is followed.",
    arguments: "[path…]",
    positionals: { min: 0 },
    options: {
      "fail-on": {
        type: "string",
        value: "SEVERITY",
        help: "exit 1 at this severity or worse (default high)",
        choices: AUDIT_SEVERITIES,
      },
      sarif: {
        type: "boolean",
        help: "print the findings as a SARIF 2.1.0 log (for code scanning)",
      },
      scanner: {
        type: "string",
        value: "CMD",
        multiple: true,
        help: "also run CMD on each folder (no shell; the folder appended) and add the SARIF it prints",
      },
      rules: {
        type: "boolean",
        help: "list the rules (id, severity, what each finds) and read nothing",
      },
    },
    shared: ["json", "cwd"],
    exits: "0 nothing at or above --fail-on, 1 a finding that is, 2 usage error",
    load: async () => (await import("./commands/audit.js")).runAudit,
  }),
];
