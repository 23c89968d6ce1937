import { AUDIT_SEVERITIES, type AuditSeverity } from "@skillshelf/core";
import {
  CONCEALMENT,
  concealsAction,
  deceptiveHost,
  PRIORITY_CLAIM,
  REMOTE_INSTRUCTIONS,
  URL_WITH_UNUSUAL_HOST,
} from "./_prose.js";

/** The version of the rule table: raised whenever a rule is added or changes what it finds (a verdict is bound to it). */
export const AUDIT_RULES_VERSION = "2";

/** How bad a finding is, lowest first (core's list: a lock records it too). */
export const SEVERITIES: typeof AUDIT_SEVERITIES = AUDIT_SEVERITIES;

/** A finding's severity. */
export type Severity = AuditSeverity;

/**
 * What a rule looks at: each line of a text file (`lines`, matched by `pattern`; with `keywords`,
 * only in a file whose lower-cased text holds one of them, a fast test before the pattern), only
 * the lines of a `SKILL.md`'s frontmatter (`frontmatter`), or a file's first bytes and mode (`file`).
 */
export type RuleMatch =
  | {
      readonly on: "lines";
      readonly pattern: RegExp;
      readonly keywords?: readonly (string | Uint8Array)[];
      /** A second look at a match: false when the line only looks like the attack. */
      readonly accept?: ((line: string, match: RegExpExecArray) => boolean) | undefined;
      /**
       * The syntax analysis of code judges this rule: in a code block or script it parsed, the
       * analysis's findings replace this pattern's. Outside code, and where code does not parse,
       * the pattern stands (a finding says which).
       */
      readonly code?: true | undefined;
    }
  | { readonly on: "frontmatter"; readonly pattern: RegExp }
  | { readonly on: "file"; readonly test: (file: FileFacts) => boolean }
  /** Found only by the syntax analysis of code. */
  | { readonly on: "code" };

/** What a file rule is shown of a file: its path inside the tree, its first bytes and whether it is executable. */
export interface FileFacts {
  readonly path: string;
  readonly head: Uint8Array;
  readonly executable: boolean;
}

/** One rule of the audit: data, with why it exists and what to do about a finding. */
export interface AuditRule {
  readonly id: string;
  readonly severity: Severity;
  readonly title: string;
  /** Why the rule exists: the attack it catches. */
  readonly rationale: string;
  /** What to do about a finding (a finding's `hint`). */
  readonly remedy: string;
  readonly match: RuleMatch;
}

const MAGIC = {
  elf: [0x7f, 0x45, 0x4c, 0x46],
  pe: [0x4d, 0x5a],
  machO: [0xcf, 0xfa, 0xed, 0xfe],
  machOFat: [0xca, 0xfe, 0xba, 0xbe],
  zip: [0x50, 0x4b, 0x03, 0x04],
  gzip: [0x1f, 0x8b],
  sevenZip: [0x37, 0x7a, 0xbc, 0xaf],
  rar: [0x52, 0x61, 0x72, 0x21],
} as const;

const startsWith = (head: Uint8Array, magic: readonly number[]) =>
  magic.every((byte, at) => head[at] === byte);

// a word that reads, copies, packs or sends what follows it on the line
const READ_VERB =
  "\\b(?:cat|less|more|head|tail|grep|source|read|open|load|cp|scp|rsync|tar|zip|base64|upload|send|copy|exfiltrate)\\b";

/**
 * What the hidden-Unicode rule looks for: the tag characters (U+E0000–E007F, by the first three
 * bytes of their UTF-8 they share), bidirectional controls and zero-width characters.
 */
const INVISIBLE: readonly (string | Uint8Array)[] = [
  Uint8Array.of(0xf3, 0xa0, 0x80),
  Uint8Array.of(0xf3, 0xa0, 0x81),
  ...codePoints(0x202a, 0x202e),
  ...codePoints(0x2066, 0x2069),
  ...codePoints(0x200b, 0x200d),
  "\u2060",
  "\ufeff",
];

function codePoints(first: number, last: number): string[] {
  return Array.from({ length: last - first + 1 }, (_, at) => String.fromCodePoint(first + at));
}

/** The hosts where pasted text and dropped files are served to whoever has the link. */
const PASTE_HOSTS = [
  "pastebin\\.com",
  "paste\\.ee",
  "hastebin\\.com",
  "ghostbin\\.\\w+",
  "termbin\\.com",
  "0x0\\.st",
  "transfer\\.sh",
  "file\\.io",
  "gofile\\.io",
  "temp\\.sh",
  "anonfiles\\.\\w+",
  "catbox\\.moe",
  "rentry\\.(co|org)",
  "dpaste\\.(com|org)",
];

/**
 * Every rule of the audit, compiled once. Each has a hostile sample and a benign near-miss in
 * the tests; docs/audit-rules.md is generated from this table.
 */
export const AUDIT_RULES: readonly AuditRule[] = [
  {
    id: "hidden-unicode",
    severity: "high",
    title: "Hidden Unicode",
    rationale:
      "Tag characters, bidirectional overrides and runs of zero-width characters are invisible to a person reviewing the file but read by the model: instructions can be smuggled past a review.",
    remedy: "remove the invisible characters; review the file in a viewer that shows them",
    match: {
      on: "lines",
      pattern:
        /[\u{E0000}-\u{E007F}]|[\u202A-\u202E\u2066-\u2069]|[\u200B-\u200D\u2060\uFEFF]{2,}/u,
      keywords: INVISIBLE,
    },
  },
  {
    id: "concealed-instruction",
    severity: "high",
    title: "Instructions that hide actions or override earlier ones",
    rationale:
      'A skill that tells the agent to keep what it does from the user ("do not mention that you ran it", "quietly run", an HTML comment addressed to the assistant), or to disregard the instructions it was given, is how the 2026 skill-malware campaign ran its payloads unseen. How a skill reports is not this: "don\'t narrate each tool call", or "show the user the tour once it validates".',
    remedy:
      "a skill should never ask the agent to hide what it does or to ignore its other instructions; do not install it",
    match: {
      on: "lines",
      // every way it is written names the user, an adverb of stealth, an earlier instruction
      // set aside, or an HTML comment
      keywords: [
        "user",
        "ignore",
        "disregard",
        "forget",
        "quietly",
        "silently",
        "secretly",
        "covertly",
        "discreetly",
        "stealthily",
        "invisibly",
        "<!--",
      ],
      pattern: CONCEALMENT,
      accept: concealsAction,
    },
  },
  {
    id: "priority-claim",
    severity: "high",
    title: "Instructions that claim priority over the user or the system",
    rationale:
      "A skill is one of many instructions an agent weighs; one that says it outranks the user's or the system's, or that its steps hold even if the user objects, is written to take the agent over.",
    remedy: "a skill cannot outrank its user; do not install one that claims to",
    match: {
      on: "lines",
      keywords: [
        "priority",
        "precedence",
        "override",
        "supersede",
        "outrank",
        "even if the",
        "ignore",
        "disregard",
        "system prompt",
        "system instructions",
        "developer prompt",
        "developer instructions",
      ],
      pattern: PRIORITY_CLAIM,
    },
  },
  {
    id: "remote-instructions",
    severity: "high",
    title: "Instructions fetched from a host and followed",
    rationale:
      "A skill that has the agent fetch text from a URL and do what it says runs instructions nobody reviewed, which its author can change at any time after install.",
    remedy: "ship the instructions inside the skill, where they are reviewed and pinned",
    match: {
      on: "lines",
      keywords: ["http"],
      pattern: REMOTE_INSTRUCTIONS,
    },
  },
  {
    id: "homoglyph-domain",
    severity: "high",
    title: "A host name written to look like another",
    rationale:
      "A domain that mixes scripts, or is written in Cyrillic or Greek letters that read as Latin ones, sends the agent to a host other than the one a reviewer reads.",
    remedy: "write the host in plain ASCII; do not install a skill that disguises one",
    match: {
      on: "lines",
      keywords: ["http"],
      pattern: URL_WITH_UNUSUAL_HOST,
      accept: deceptiveHost,
    },
  },
  {
    id: "download-and-run",
    severity: "critical",
    title: "Download and run",
    rationale:
      "Fetching a script and piping it to a shell runs whatever the host serves at that moment, unreviewed; it is the most common payload of malicious skills.",
    remedy:
      "download the script, review it, pin it by digest and run the reviewed copy, or do not install the skill",
    match: {
      on: "lines",
      code: true,
      // each way it is written names a fetch, a decoder or PowerShell's own
      keywords: [
        "curl",
        "wget",
        "iex",
        "invoke-expression",
        "base64",
        "powershell",
        "urlopen",
        "requests.get",
      ],
      pattern:
        /\b(?:ba|z|k|da)?sh\s+-c\s+["']?\$\((?:curl|wget)\b|-c\s+["']?\$\([^)\n]*\bbase64\s+(?:-d|--decode)|\b(?:source|\.|(?:ba|z)?sh)\s+<\(\s*(?:curl|wget)\b|\bexec\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get)\(|\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|\b(?:iex|invoke-expression)\b[^\n]*(?:downloadstring|iwr|invoke-webrequest|net\.webclient)|\bbase64\s+(?:-d|--decode)\b[^|\n]*\|\s*(?:ba|z)?sh\b|\beval\s+"?\$\((?:curl|wget)\b|\bpowershell(?:\.exe)?\s+[^\n]*-e(?:nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{20,}/i,
    },
  },
  {
    id: "vendor-installer",
    severity: "medium",
    title: "A vendor's installer fetched and run",
    rationale:
      "Homebrew, rustup, Docker and others document installing with `curl … | sh` from their own URL. It is still code fetched when it runs, unpinned, so it is reported, at medium: the exact URLs are a table in the audit, and any other URL, a look-alike included, is download-and-run. Read by the syntax analysis.",
    remedy:
      "install the tool the way your machine's policy says, or check the installer's URL is the vendor's",
    match: { on: "code" },
  },
  {
    id: "credential-read",
    severity: "high",
    title: "Reads of credentials",
    rationale:
      'SSH keys, cloud and registry credentials, wallets and agents\' own memory and auth files are what stealer skills read first. A line that names one of them and reads, copies, packs or sends it is flagged; a mention alone ("leave ~/.netrc alone") is not.',
    remedy:
      "a skill has no need to read credentials; if it truly does, name the one file and why, and review it",
    match: {
      on: "lines",
      code: true,
      keywords: [
        ".ssh",
        "id_",
        ".aws",
        "gcloud",
        ".azure",
        ".kube",
        ".docker",
        ".npmrc",
        ".netrc",
        ".pypirc",
        "git-credentials",
        "wallet",
        "electrum",
        "keystore",
        "/.claude",
        "/.codex",
        "/.gemini",
      ],
      pattern: new RegExp(
        `${READ_VERB}[^\\n]*(?:~?\\/?\\.ssh\\/(?:id_\\w+|authorized_keys)\\b(?!\\.pub)|\\bid_(?:rsa|ed25519|ecdsa|dsa)\\b(?!\\.pub)|\\.aws\\/credentials\\b|\\.config\\/gcloud\\b|\\.azure\\/|\\.kube\\/config\\b|\\.docker\\/config\\.json\\b|\\.(?:npmrc|netrc|pypirc|git-credentials)\\b|wallet\\.dat\\b|\\.electrum\\b|keystore\\b|~\\/\\.(?:claude\\/(?:\\.credentials|projects)|claude\\.json|codex\\/auth|gemini\\/oauth))`,
        "i",
      ),
    },
  },
  {
    id: "env-file-read",
    severity: "low",
    title: "Reads of a .env file",
    rationale:
      "A project's .env holds its secrets. Many honest skills read it for their own settings (it fires on about 4% of the shared corpus, every one of them that), so it is low: read what the skill does with the values.",
    remedy:
      "check what the skill does with the values it reads from .env; it should name the variables it needs",
    match: {
      on: "lines",
      code: true,
      keywords: [".env"],
      // no copy verbs: `cp .env.example .env` writes the file, it does not read it
      pattern: /(?:^|[\s"'\x60/])\.env\b(?!\.(?:example|sample|template))/,
      accept: (line, match) =>
        /\b(?:cat|less|more|head|tail|grep|source|read|open|load|base64|upload|send)\b/i.test(
          line.slice(0, match.index),
        ),
    },
  },
  {
    id: "exfiltration",
    severity: "high",
    title: "Sending files or secrets to a host",
    rationale:
      "Uploading a file, an environment variable or a command's output to a remote host is how stolen data leaves the machine.",
    remedy:
      "a skill should not send local files or secrets anywhere; do not install it unless you know the host and the data",
    match: {
      on: "lines",
      code: true,
      keywords: ["curl", "wget", "nc ", "ncat", "netcat", "invoke-restmethod"],
      pattern:
        /\bcurl\b[^\n]*(?:\s(?:-F|--form)\s+["']?[\w.-]+=@(?!-)|\s(?:-T|--upload-file)\s+(?!-\s)|\s(?:-d|--data(?:-binary|-raw|-urlencode)?)\s+["']?@["']?(?:~|\$HOME)?\/?[^\s"']*\.(?:ssh|aws|env|netrc|npmrc|pypirc|git-credentials|docker|kube)\b|\$\((?:cat|env|printenv)\b|\$\{?(?:AWS_SECRET|GITHUB_TOKEN|NPM_TOKEN|OPENAI_API_KEY|ANTHROPIC_API_KEY)\b)|\bwget\b[^\n]*--post-file\b|\b(?:nc|ncat|netcat)\s+[\w.-]+\s+\d+\s*<|\bInvoke-RestMethod\b[^\n]*-InFile\b/i,
    },
  },
  {
    id: "paste-site-link",
    severity: "medium",
    title: "Links to paste and file-drop sites",
    rationale:
      "Paste and file-drop sites serve whatever is uploaded under a link and change without notice; malicious skills fetch their second stage from them.",
    remedy: "fetch nothing from paste or file-drop sites; ship what the skill needs inside it",
    // a host followed by a path: a link, not a file that happens to be called temp.sh
    match: {
      on: "lines",
      keywords: [
        "pastebin",
        "paste.ee",
        "hastebin",
        "ghostbin",
        "termbin",
        "0x0.st",
        "transfer.sh",
        "file.io",
        "gofile",
        "temp.sh",
        "anonfiles",
        "catbox",
        "rentry",
        "dpaste",
      ],
      pattern: new RegExp(`\\b(?:${PASTE_HOSTS.join("|")})\\/`, "i"),
    },
  },
  {
    id: "persistence",
    severity: "high",
    title: "Writes that make something run again later",
    rationale:
      "A key appended to authorized_keys, a line added to a shell's start-up file, a cron entry or a launch agent keeps an attacker's code running after the skill is gone.",
    remedy:
      "a skill has no reason to change how the machine starts or who may log in; do not install it",
    match: {
      on: "lines",
      code: true,
      keywords: [
        "authorized_keys",
        "bashrc",
        "zshrc",
        "bash_profile",
        "zprofile",
        ".profile",
        "crontab",
        "launchctl",
        "launchagents",
        "launchdaemons",
        "systemctl",
        "autostart",
      ],
      pattern:
        /(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?(?:~|\$HOME|\/(?:root|home\/\w+|Users\/\w+))?\/?(?:\.ssh\/authorized_keys|\.(?:bashrc|bash_profile|zshrc|zprofile|profile)\b|Library\/Launch(?:Agents|Daemons)|\.config\/autostart)|\|\s*crontab\s+-(?!\w)|\blaunchctl\s+(?:load|bootstrap)\b|\bsystemctl\s+(?:--user\s+)?enable\b/i,
    },
  },
  {
    id: "obfuscated-command",
    severity: "medium",
    title: "Commands whose name is built to be unreadable",
    rationale:
      "A command assembled from variables or escapes (`C=cu; C=$C'rl'; $C …`, `c\\url`, `$'\\x63url'`) is written so a reviewer, and a scanner reading text, cannot see what runs. Read by the syntax analysis, which resolves what it can.",
    remedy: "write commands as themselves; read what the built name resolves to before installing",
    match: { on: "code" },
  },
  {
    id: "broad-allowed-tools",
    severity: "medium",
    title: "allowed-tools wider than any skill needs",
    rationale:
      "`allowed-tools` runs the listed tools without asking the user; `Bash(*)`, a bare `Bash` or `*` pre-approves any command at all. It fires on about 5% of the shared corpus: each is such a grant, kept at medium because authors grant it without meaning harm.",
    remedy: "narrow allowed-tools to the commands the skill runs, as Bash(git status:*)",
    match: {
      on: "frontmatter",
      pattern:
        /^\s*(?:allowed-tools:|-)\s*.*(?:\bBash\s*\(\s*\*\s*\)|\bBash\b(?!\s*\()|(?:^|[\s,:[])\*(?:$|[\s,\]]))/,
    },
  },
  {
    id: "executable-binary",
    severity: "high",
    title: "Executable binaries",
    rationale:
      "A compiled program cannot be reviewed as text; a skill that ships one asks to run code nobody read.",
    remedy:
      "ship source the user can read instead of a binary, or build it from a pinned, reviewed source",
    match: {
      on: "file",
      test: (file) =>
        startsWith(file.head, MAGIC.elf) ||
        startsWith(file.head, MAGIC.machO) ||
        startsWith(file.head, MAGIC.machOFat) ||
        (startsWith(file.head, MAGIC.pe) && /\.(?:exe|dll|scr|com|sys)$/i.test(file.path)),
    },
  },
  {
    id: "embedded-archive",
    severity: "medium",
    title: "Archives inside a skill",
    rationale:
      "An archive hides its contents from review and from this audit; it is unpacked only when something runs.",
    remedy: "unpack the archive into the skill so its files can be read and audited",
    match: {
      on: "file",
      test: (file) =>
        [MAGIC.zip, MAGIC.gzip, MAGIC.sevenZip, MAGIC.rar].some((magic) =>
          startsWith(file.head, magic),
        ) && !/\.(?:docx|xlsx|pptx|odt|ods|odp|epub|jar)$/i.test(file.path),
    },
  },
  {
    id: "executable-file",
    severity: "low",
    title: "Executable files",
    rationale: "A file marked executable is meant to be run; it should be read before it is.",
    remedy: "read every executable file of the skill before you allow it to run",
    match: { on: "file", test: (file) => file.executable },
  },
];
