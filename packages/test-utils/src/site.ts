import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { RequestListener } from "node:http";
import { join, sep } from "node:path";

/** One skill a test site lists: a `SKILL.md` or an archive's bytes, and the digest to list (default: theirs). */
export interface SiteEntry {
  readonly name: string;
  readonly type: "skill-md" | "archive" | (string & {});
  readonly bytes: Buffer;
  readonly digest?: string;
}

/**
 * The routes of a site listing `entries` at `/.well-known/agent-skills/index.json` (discovery RFC
 * 0.2.0), each served below that folder with its `sha256:` digest, for `serve`.
 */
export function siteRoutes(
  entries: readonly SiteEntry[],
): Record<string, Buffer | RequestListener> {
  const routes: Record<string, Buffer> = {};
  const skills = entries.map((entry) => {
    const file = entry.type === "skill-md" ? "SKILL.md" : `${entry.name}.tar.gz`;
    routes[`/.well-known/agent-skills/${entry.name}/${file}`] = entry.bytes;
    return {
      name: entry.name,
      type: entry.type,
      description: `The ${entry.name} skill.`,
      url: `${entry.name}/${file}`,
      digest: entry.digest ?? `sha256:${createHash("sha256").update(entry.bytes).digest("hex")}`,
    };
  });
  routes["/.well-known/agent-skills/index.json"] = Buffer.from(
    JSON.stringify({
      $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
      skills,
    }),
  );
  return routes;
}

/** Every file below `dir` as a route (`/<path>`), for `serve`: a static site as a web server would serve it. */
export function folderRoutes(dir: string): Record<string, Buffer> {
  const routes: Record<string, Buffer> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) routes[`/${name.split(sep).join("/")}`] = readFileSync(path);
  }
  return routes;
}
