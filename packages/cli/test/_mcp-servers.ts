import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { testdir } from "@skillshelf/test-utils";

const require = createRequire(import.meta.url);

/** One skill entry as a server written in a test serves it, and the text of each of its files. */
export interface Served {
  readonly entry: Record<string, unknown>;
  readonly files: Readonly<Record<string, string>>;
}

/** `text`'s digest as SEP-2640 writes it, and its length in bytes. */
const described = (uri: string, text: string) => ({
  uri,
  digest: `sha256:${createHash("sha256").update(text).digest("hex")}`,
  size: Buffer.byteLength(text),
});

/** A skill at `uri` (`<scheme>://<path>/SKILL.md`) with `files` (by path inside it), entry as written. */
export function skillServed(
  uri: string,
  files: Readonly<Record<string, string>>,
  frontmatter: Record<string, unknown>,
): Served {
  const root = uri.slice(0, -"/SKILL.md".length);
  const byUri = Object.fromEntries(
    Object.entries(files).map(([path, text]) => [`${root}/${path}`, text]),
  );
  return {
    entry: {
      uri,
      frontmatter,
      resources: Object.entries(byUri).map(([fileUri, text]) => described(fileUri, text)),
    },
    files: byUri,
  };
}

/** A skill served as dynamic (SEP-2640): an entry with no files to pin. */
export function dynamicSkill(uri: string, name: string, description: string): Served {
  return { entry: { uri, frontmatter: { name, description }, resources: "dynamic" }, files: {} };
}

/**
 * A server written with the SDK, started over stdio, that lists `listed`, answers `skills/get`
 * for those and `unlisted`, and serves their files; each URI it is asked to read is appended to
 * its log. What it serves is read again on every request, so `serve` changes it while it runs
 * (`lies`: the text it sends for a URI instead of the listed one). Its source text, and what it
 * was asked to read.
 */
export function sdkServer(
  listed: readonly Served[],
  unlisted: readonly Served[] = [],
): {
  readonly source: string;
  readonly reads: () => string[];
  serve(listed: readonly Served[], lies?: Readonly<Record<string, string>>): void;
} {
  const dir = testdir({});
  const script = join(dir, "server.cjs");
  const log = join(dir, "reads.log");
  const file = join(dir, "served.json");
  writeFileSync(log, "");
  const serve = (now: readonly Served[], lies: Readonly<Record<string, string>> = {}): void =>
    writeFileSync(
      file,
      JSON.stringify({
        listed: now.map((one) => one.entry),
        all: [...now, ...unlisted].map((one) => one.entry),
        files: Object.assign({}, ...[...now, ...unlisted].map((one) => one.files), lies),
      }),
    );
  serve(listed);
  writeFileSync(
    script,
    `const { Server } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/index.js"))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/stdio.js"))});
const types = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/types.js"))});
const { z } = require(${JSON.stringify(require.resolve("zod"))});
const { appendFileSync, readFileSync } = require("node:fs");
const served = () => JSON.parse(readFileSync(${JSON.stringify(file)}, "utf8"));
const server = new Server({ name: "test", version: "1" }, {
  capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
});
server.setRequestHandler(z.object({ method: z.literal("skills/list"), params: z.optional(z.any()) }), () => ({ resultType: "complete", skills: served().listed, ttlMs: 0, cacheScope: "private" }));
server.setRequestHandler(z.object({ method: z.literal("skills/get"), params: z.any() }), (request) => {
  const skill = served().all.find((one) => one.uri === request.params.uri);
  if (skill === undefined) throw new types.McpError(-32602, "no such skill");
  return { resultType: "complete", skill, ttlMs: 0, cacheScope: "private" };
});
server.setRequestHandler(types.ReadResourceRequestSchema, (request) => {
  appendFileSync(${JSON.stringify(log)}, request.params.uri + "\\n");
  return { contents: [{ uri: request.params.uri, mimeType: "text/markdown", text: served().files[request.params.uri] }] };
});
server.connect(new StdioServerTransport());
`,
  );
  return {
    source: `mcp+stdio:${process.execPath} ${script}`,
    reads: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
    serve,
  };
}
