import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { isLoopbackHost, readRegularFile, SkillshelfError } from "@skillshelf/core";
import { optionalLeftOut } from "@skillshelf/lifecycle";
import { createFolderWatch, createSkillServer, serveHttp, serveStdio } from "@skillshelf/mcp";
import { createSkillCache } from "@skillshelf/skills-loader";
import type { CommandInput } from "../command.js";
import { formatDiagnostic, painter } from "../format.js";
import { resourcesOf } from "../resources.js";
import { changeTools } from "./_mcp-changes.js";
import { openUpstreams } from "./_upstreams.js";
import { usageCounter } from "./_usage-count.js";

/** How often the library is read again to tell clients of a change, unless `--poll-ms` says. */
const DEFAULT_POLL_MS = 2000;

/**
 * `mcp`: serve the library's trusted, model-visible skills (SEP-2640) and trusted prompt
 * templates to MCP clients, over stdio (stdout then carries only MCP messages) or, with `--http`,
 * Streamable HTTP on loopback. Runs until stdin ends (stdio) or it is interrupted (HTTP).
 */
export async function runMcp(
  input: CommandInput<{
    readonly user: boolean;
    readonly project: boolean;
    readonly http: number | undefined;
    readonly host: string | undefined;
    readonly "token-file": string | undefined;
    readonly "allow-host": string | undefined;
    readonly "page-size": number | undefined;
    readonly "poll-ms": number | undefined;
    readonly "allow-changes": boolean;
    readonly upstream: readonly string[];
  }>,
): Promise<number> {
  const { io, values } = input;
  const context = input.context();
  const { environment } = context;
  const scope = values.user ? "user" : values.project ? "project" : undefined;
  const usage = usageCounter(environment);
  // one watch for the server's files and the loader's cache: a warm listing stats no skill file
  // in a folder nothing touched
  const watch = createFolderWatch();
  const cache = createSkillCache({ unchanged: (folder) => watch.quiet([folder]) });
  const skills = createSkillServer({
    resources: resourcesOf(context, cache),
    watch,
    // the user's library alone is what a folder outside any project sees: the home
    cwd: values.user ? environment.home : environment.cwd,
    pageSize: values["page-size"],
    tools: values["allow-changes"] ? changeTools(context, scope) : [],
    upstreams: await openUpstreams(environment, scope, values.upstream),
    onServed: usage.count,
    // a project's optional skills reach a contributor's clients only when their profile names them
    leaveOut: values.user ? [] : optionalLeftOut(environment),
  });
  for (const withheld of await skills.withheld())
    io.stderr(formatDiagnostic(withheld, context.style, painter(io.color)));
  const pollMs = values["poll-ms"] ?? DEFAULT_POLL_MS;
  const poll =
    pollMs === 0
      ? undefined
      : setInterval(() => {
          usage.flush();
          void skills.refresh();
        }, pollMs);
  try {
    if (values.http === undefined) {
      await serveStdio(skills, io.streams?.());
      return 0;
    }
    const host = values.host ?? "127.0.0.1";
    const given = values["token-file"];
    const made = given === undefined && !isLoopbackHost(host) ? madeToken() : undefined;
    const token = given === undefined ? made : readToken(resolve(environment.cwd, given));
    const http = await serveHttp(skills, {
      port: values.http,
      host,
      token,
      allowedHosts: values["allow-host"]
        ?.split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    });
    const address = http.address();
    const port = typeof address === "object" && address !== null ? address.port : values.http;
    io.stdout(`serving skills over MCP at http://${host}:${port}/mcp\n`);
    if (made !== undefined)
      io.stderr(
        `clients must send "Authorization: Bearer ${made}" (made now and shown only this once; --token-file keeps one)\n`,
      );
    await new Promise<void>((resolve) => {
      const stop = io.onInterrupt?.(() => {
        stop?.();
        http.close(() => resolve());
        http.closeAllConnections();
      });
    });
    return 0;
  } finally {
    if (poll !== undefined) clearInterval(poll);
    usage.flush();
    await skills.close();
  }
}

// --- internal ---

/** The shortest token accepted from a file: anything shorter is guessed too easily. */
const MIN_TOKEN_LENGTH = 16;

/** A fresh token of 256 random bits. */
function madeToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The token in `path`: its one line, at least `MIN_TOKEN_LENGTH` characters; `mcp_token_invalid` otherwise. */
function readToken(path: string): string {
  let token: string;
  try {
    token = readRegularFile(path, 4096).toString("utf8").trim();
  } catch (error) {
    throw new SkillshelfError("mcp_token_invalid", `the token file ${path} cannot be read`, {
      path,
      cause: error,
    });
  }
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))
    throw new SkillshelfError(
      "mcp_token_invalid",
      `the token file ${path} does not hold one token of at least ${MIN_TOKEN_LENGTH} characters`,
      { path },
    );
  return token;
}
