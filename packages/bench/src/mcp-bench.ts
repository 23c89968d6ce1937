import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createSkillCache, loadSkills } from "@skillshelf/skills-loader";
import { z } from "zod";
import { cliBin } from "./cli-bench.js";
import { writeCorpusTree } from "./corpus-tree.js";
import { type BenchOptions, median, timeSideBySideAsync, verdict } from "./measure.js";

const PAGE_SIZE = 100;
/** Untimed calls of each variant first: the server's code is compiled by then, as in daily use. */
const WARMUPS = 20;
/** Calls per measurement, their mean the measurement. */
const REPEAT = 5;
const ListPage = z.looseObject({
  skills: z.array(z.unknown()),
  nextCursor: z.optional(z.string()),
});

/**
 * `skills/list` (issue 29): every page of 1,000 real skills (the corpus's, repeated under new
 * names, each answering to its folder's name) from a warm `skillshelf mcp` over stdio through the SDK's own client, beside
 * `loadSkills` with its cache over the same folder in the same run, and beside the protocol's own
 * cost: the same pages, byte for byte, from a server that only replays them (an SDK server over
 * stdio too), and a `ping` round trip. Target: at most 1.2× the cached load plus the replay.
 */
export async function runMcpBench(options: BenchOptions): Promise<string> {
  const home = join(options.workDir, "mcp", "home");
  rmSync(dirname(home), { recursive: true, force: true });
  const library = join(home, ".config", "skillshelf", "skills");
  mkdirSync(library, { recursive: true });
  const skills = Math.max(10, Math.min(1_000, Math.round(options.count / 10)));
  const tree = writeCorpusTree(library, skills, { distinctNames: true });
  const bin = cliBin();
  const client = await connected(
    [bin, "mcp", "--user", "--poll-ms", "0", "--page-size", String(PAGE_SIZE)],
    home,
  );
  const pages = await listAll(client);
  const replay = await connected([replayServer(dirname(home), pages)], home);
  const cache = createSkillCache();
  try {
    console.log(`bench: skills/list over ${skills} skills, ${options.rounds} rounds side by side`);
    const times = await timeSideBySideAsync(
      {
        "skills/list": () => listAll(client),
        // the library as any loader reads it: every default root (the agents' folders too)
        "loadSkills cached": async () => loadSkills({ cwd: home, home, env: {}, cache }),
        replay: () => listAll(replay),
        ping: () => client.ping(),
      },
      options.rounds,
      { warmups: WARMUPS, repeat: REPEAT },
    );
    const list = median(times["skills/list"] ?? []);
    const load = median(times["loadSkills cached"] ?? []);
    const replayed = median(times.replay ?? []);
    const ping = median(times.ping ?? []);
    const floor = load + replayed;
    const ratio = list / floor;
    const listed = pages.reduce((sum, page) => sum + page.skills.length, 0);
    return [
      "## Skills over MCP",
      "",
      `\`skills/list\` of ${listed} real skills (the corpus's, repeated under new names: ${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB; the others do not validate or are not model-visible) in ${pages.length} pages of ${PAGE_SIZE} (every file of every skill with its sha256 digest, each file's stamp checked) from a warm \`skillshelf mcp --user\` (${WARMUPS} untimed lists first) over stdio, through the SDK's own client, beside \`loadSkills\` with its cache over the same folder in process, and the protocol alone: the same pages replayed by an SDK server that does nothing else; every variant warmed alike, each measurement the mean of ${REPEAT} calls, medians of ${options.rounds} rounds:`,
      "",
      "| variant | ms |",
      "|---|---|",
      `| skills/list, every page | ${list.toFixed(1)} |`,
      `| loadSkills, cached | ${load.toFixed(1)} |`,
      `| the same pages replayed (the protocol alone) | ${replayed.toFixed(1)} |`,
      `| one ping round trip | ${ping.toFixed(2)} |`,
      `| loadSkills cached + the replay | ${floor.toFixed(1)} |`,
      "",
      `Ratio ${ratio.toFixed(2)}× the cached load plus the protocol (${(list / load).toFixed(2)}× the cached load alone). Target: at most 1.2×: ${verdict(ratio <= 1.2)}.`,
    ].join("\n");
  } finally {
    await Promise.all([client.close(), replay.close()]);
  }
}

type Page = z.infer<typeof ListPage>;

/** The SDK's client over stdio to `node ARGS`, with `home` as its home. */
async function connected(args: readonly string[], home: string): Promise<Client> {
  const client = new Client({ name: "skillshelf-bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...args],
      env: { PATH: process.env.PATH ?? "", HOME: home },
      stderr: "inherit",
    }),
  );
  return client;
}

/** Every page of `skills/list`, following the cursors. */
async function listAll(client: Client): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request(
      { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
      ListPage,
    );
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

/**
 * A script of an SDK server over stdio that answers \`skills/list\` with `pages` as they are,
 * each by the cursor that led to it: the protocol's cost with none of the library's work.
 */
function replayServer(dir: string, pages: readonly Page[]): string {
  const sdk = (path: string) => JSON.stringify(createRequire(import.meta.url).resolve(path));
  const byCursor: Record<string, Page> = {};
  let cursor = "";
  for (const page of pages) {
    byCursor[cursor] = page;
    cursor = page.nextCursor ?? "";
  }
  writeFileSync(join(dir, "pages.json"), JSON.stringify(byCursor));
  const script = join(dir, "replay.cjs");
  writeFileSync(
    script,
    `const { Server } = require(${sdk("@modelcontextprotocol/sdk/server/index.js")});
const { StdioServerTransport } = require(${sdk("@modelcontextprotocol/sdk/server/stdio.js")});
const { z } = require(${sdk("zod")});
const pages = JSON.parse(require("node:fs").readFileSync(${JSON.stringify(join(dir, "pages.json"))}, "utf8"));
const server = new Server({ name: "replay", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/skills": {} } } });
server.setRequestHandler(z.object({ method: z.literal("skills/list"), params: z.optional(z.looseObject({ cursor: z.optional(z.string()) })) }), (request) => pages[request.params?.cursor ?? ""]);
server.connect(new StdioServerTransport());
`,
  );
  return script;
}
