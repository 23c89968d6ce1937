import { createSkillServer, serveHttp, serveStdio } from "@skillshelf/mcp";
import type { CommandInput } from "../command.js";
import { resourcesOf } from "../resources.js";

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
    readonly "page-size": number | undefined;
    readonly "poll-ms": number | undefined;
  }>,
): Promise<number> {
  const { io, values } = input;
  const context = input.context();
  const { environment } = context;
  const skills = createSkillServer({
    resources: resourcesOf(context),
    // the user's library alone is what a folder outside any project sees: the home
    cwd: values.user ? environment.home : environment.cwd,
    pageSize: values["page-size"],
  });
  const pollMs = values["poll-ms"] ?? DEFAULT_POLL_MS;
  const poll = pollMs === 0 ? undefined : setInterval(() => void skills.refresh(), pollMs);
  try {
    if (values.http === undefined) {
      await serveStdio(skills, io.streams?.());
      return 0;
    }
    const http = await serveHttp(skills, { port: values.http, host: values.host });
    const address = http.address();
    const port = typeof address === "object" && address !== null ? address.port : values.http;
    io.stdout(`serving skills over MCP at http://${values.host ?? "127.0.0.1"}:${port}/mcp\n`);
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
    await skills.close();
  }
}
