import { basename } from "node:path";
import type { Environment, PackageScope } from "@skillshelf/core";
import { changeStageOptions, mcpSourceOf, openUpstream } from "@skillshelf/lifecycle";
import { splitArguments } from "@skillshelf/prompts-loader";
import { type SkillsUpstream, STDIO_PREFIX } from "@skillshelf/sources";
import { UsageError } from "../usage-error.js";

/**
 * The upstreams of `skillshelf mcp --upstream NAME=SOURCE…`, connected (a command typed here may
 * start), each refused by the policy or unreachable failing the start with its code. Without
 * `NAME=`, the name is the server's host's first label, or its command's name.
 */
export async function openUpstreams(
  environment: Environment,
  scope: PackageScope | undefined,
  given: readonly string[],
): Promise<SkillsUpstream[]> {
  const named = given.map((text) => namedUpstream(text, environment.cwd));
  const seen = new Set<string>();
  for (const { name } of named) {
    if (seen.has(name))
      throw new UsageError(
        "mcp_upstream_invalid",
        `--upstream ${name}: two upstreams have that name; give each its own NAME=`,
      );
    seen.add(name);
  }
  const options = changeStageOptions(environment, scope ?? "user", {
    texts: named.map((one) => one.text),
    allowMcpCommand: false,
  });
  const opened: SkillsUpstream[] = [];
  try {
    for (const { name, source } of named)
      opened.push(await openUpstream({ environment, name, source, options }));
  } catch (error) {
    await Promise.allSettled(opened.map((one) => one.close()));
    throw error;
  }
  return opened;
}

// --- internal ---

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

function namedUpstream(
  text: string,
  cwd: string,
): {
  readonly name: string;
  readonly text: string;
  readonly source: NonNullable<ReturnType<typeof mcpSourceOf>>;
} {
  const equals = text.indexOf("=");
  const explicit =
    equals > 0 && NAME.test(text.slice(0, equals)) && text.slice(equals + 1).startsWith("mcp+");
  const sourceText = explicit ? text.slice(equals + 1) : text;
  const source = mcpSourceOf(sourceText, cwd);
  if (source === undefined)
    throw new UsageError(
      "mcp_upstream_invalid",
      `--upstream ${text}: not an MCP server's source (mcp+stdio:<command> or mcp+https://host/path)`,
    );
  const name = explicit ? text.slice(0, equals) : derivedName(source.url);
  if (!NAME.test(name))
    throw new UsageError(
      "mcp_upstream_invalid",
      `--upstream ${text}: name it with NAME=${sourceText} (lowercase letters, digits, hyphens)`,
    );
  return { name, text: sourceText, source };
}

/** An upstream's name from its URL: its host's first label, or its command's name. */
function derivedName(url: string): string {
  if (url.startsWith(STDIO_PREFIX)) {
    const [command = ""] = splitArguments(url.slice(STDIO_PREFIX.length));
    return basename(command)
      .toLowerCase()
      .replace(/\.[^.]*$/, "");
  }
  return new URL(url).hostname.split(".")[0]?.toLowerCase() ?? "";
}
