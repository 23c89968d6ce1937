// Codes of skills over MCP (SEP-2640): what a served library refuses, and what a server read as a
// source is refused for.
export const MCP_CODES = {
  mcp_uri_invalid: {
    owner: "mcp",
    hint: "name a served file as skill://<skill>/<path inside it>, without . or .. segments (skills/list gives every served URI)",
  },
  mcp_uri_unknown: {
    owner: "mcp",
    hint: "the URI names no skill or file this server serves: only trusted, model-visible skills are served (skillshelf explain says which); list again with skills/list",
  },
  mcp_tool_unknown: {
    owner: "mcp",
    hint: "call one of the tools tools/list gives; the change tools are served only when the server was started with skillshelf mcp --allow-changes",
  },
  mcp_cursor_invalid: {
    owner: "mcp",
    hint: "pass back the nextCursor of the previous page unchanged, or list again from the start without a cursor",
  },
  mcp_prompt_refused: {
    owner: "mcp",
    hint: "the prompt template is unknown, cannot run or is not trusted; prompts/list gives the ones served",
  },
  mcp_http_unprotected: {
    owner: "mcp",
    hint: "give the server a token (skillshelf mcp --token-file FILE, or let it make one), or serve on 127.0.0.1",
  },
  mcp_token_invalid: {
    owner: "cli",
    hint: "write the token (at least 16 characters, one line) into a file only you can read, and name it with --token-file",
  },
  mcp_server_failed: {
    owner: "sources",
    hint: "check the server: for mcp+stdio the command must start an MCP server on its standard input and output; for mcp+https the URL must answer MCP over Streamable HTTP",
  },
  mcp_command_refused: {
    owner: "sources",
    hint: "a lock or an index names this command, and it would run on your machine: read it, then type the source yourself (skillshelf install mcp+stdio:<command>) or pass --allow-mcp-command",
  },
  mcp_not_skills_server: {
    owner: "sources",
    hint: "the server does not declare the io.modelcontextprotocol/skills extension; ask its maintainers, or install its skills another way",
  },
  mcp_skill_missing: {
    owner: "sources",
    hint: "the server lists no skill at that path; install it without a path to see every skill it serves, or check the path",
  },
  mcp_skill_dynamic: {
    owner: "sources",
    hint: "the server serves this skill as dynamic, so its content cannot be pinned by digests and is not installed; use it through the server itself, or ask its maintainers to publish its files with digests",
  },
  mcp_skill_over_limit: {
    owner: "sources",
    hint: "a skill over MCP holds at most 512 files and 16 MiB (SEP-2640), so this one is not served or installed; split it, or install it from its repository",
  },
  mcp_size_mismatch: {
    owner: "sources",
    hint: "the file the server sent is not as long as its listing said, so it is not used; list the server again (its skill may have changed), and tell its maintainers if it persists",
  },
  mcp_skill_invalid: {
    owner: "sources",
    hint: "the server's entry for the skill breaks SEP-2640 (no digests, a file outside the skill, a frontmatter unlike its SKILL.md); do not install it, and tell the server's maintainers",
  },
  mcp_upstream_unapproved: {
    owner: "lifecycle",
    hint: "a gateway relays an upstream's skill only once you approved exactly what it lists: run skillshelf trust with the upstream's source and the skill's path (its files are fetched and audited), then the gateway serves it on its next listing",
    hintWith:
      "skillshelf trust {source} fetches and audits it; the gateway serves it on its next listing once approved",
  },
  mcp_upstream_changed: {
    owner: "lifecycle",
    hint: "the upstream now lists other files or digests than the ones you approved, so the skill is withheld; run skillshelf trust on it again to audit and approve what it serves now",
    hintWith:
      "it now lists other files or digests than the ones approved: skillshelf trust {source} audits and approves what it serves now",
  },
  mcp_upstream_invalid: {
    owner: "cli",
    hint: "write --upstream NAME=SOURCE with an mcp+stdio: or mcp+https:// source and a NAME of lowercase letters, digits and hyphens, each NAME once",
  },
  usage_file_unsafe: {
    owner: "store",
    hint: "the usage file is a link or not a regular file, so nothing is counted into it; remove it and run skillshelf usage enable again",
  },
} as const;
