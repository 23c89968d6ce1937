import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Diagnostic } from "@skillshelf/core";
import type { Resources } from "@skillshelf/resources";
import { SKILLS_EXTENSION } from "@skillshelf/sources/mcp-protocol";
import { invalidParams } from "./_errors.js";
import { createFileCache } from "./_files.js";
import { buildListing, type Listing, withRelayed } from "./_listing.js";
import { pageOf } from "./_pages.js";
import { getPrompt, listedPrompts, promptDescription } from "./_prompts.js";
import { directoryChildren, readSkillFile, served } from "./_read.js";
import { listRelayed, NOTHING_RELAYED, type Upstream } from "./_relay.js";
import { DirectoryReadRequest, SkillsGetRequest, SkillsListRequest } from "./_requests.js";
import { createFolderWatch, type FolderWatch } from "./_watch.js";
import { servedSkills } from "./served.js";
import { type ServerTool, serveTools } from "./tools.js";

/** How `createSkillServer` serves. */
export interface SkillServerOptions {
  /** The read contract the library is read through (its trust decisions, its stat-keyed cache). */
  readonly resources: Resources;
  /** The folder whose effective library is served: a project, or the home for the user's alone. */
  readonly cwd: string;
  /** Skills per `skills/list` page. Default 100. */
  readonly pageSize?: number | undefined;
  /** The name and version the server gives clients. */
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  /** Tools served beside the skills (none by default: the server only reads). */
  readonly tools?: readonly ServerTool[] | undefined;
  /**
   * Upstream SEP-2640 servers whose skills are served beside the library's, each under its name
   * (a gateway). Each is listed when the server starts and again on each `refresh`.
   */
  readonly upstreams?: readonly Upstream[] | undefined;
  /** Told of each skill a client asked for (`skills/get`) or read a file of (`resources/read`). */
  readonly onServed?: ((use: SkillUse) => void) | undefined;
  /**
   * The watch on the folders of the skills served (closed with the server): give the same one
   * to the skill cache the `resources` read through (`createSkillCache({ unchanged })`), and a
   * warm listing takes each skill whose folders nothing touched without a stat. Default: the
   * server's own.
   */
  readonly watch?: FolderWatch | undefined;
  /**
   * Skills of the library not served by name (a project's optional skills the person serving it
   * did not choose): neither listed nor readable.
   */
  readonly leaveOut?: readonly string[] | undefined;
}

/** A skill a client asked for or read a file of: how it is addressed here, and by which request. */
export interface SkillUse {
  readonly skill: string;
  readonly request: "skills/get" | "resources/read";
}

/**
 * A library served over MCP: one listing shared by every connection (stdio, or each HTTP session).
 */
export interface SkillServer {
  /** Serve one client over `transport` until it closes. */
  connect(transport: Transport): Promise<void>;
  /**
   * Read the library again; when what is served changed, tell every connected client (the lists
   * changed; each subscribed file that changed was updated). True when something changed.
   */
  refresh(): Promise<boolean>;
  /**
   * Once the upstreams were first listed: their skills not relayed now (not approved for what they
   * list, refused by the policy, not pinnable) and each upstream whose listing failed, with why.
   */
  withheld(): Promise<readonly Diagnostic[]>;
  /** Close every connection (and every upstream). */
  close(): Promise<void>;
}

/**
 * Serve the trusted, model-visible skills of `cwd`'s library as SEP-2640 skills (`skills/list`,
 * `skills/get`, `skill://` resources with `sha256:` digests, directory reads) and its trusted
 * prompt templates as MCP prompts. Each list reads the library again through the stat-keyed
 * caches, so a change on disk is seen by the next list; a file is read from disk when it is read.
 *
 * @example
 * const server = createSkillServer({ resources: createResources(), cwd: process.cwd() });
 * await server.connect(new StdioServerTransport());
 */
export function createSkillServer(options: SkillServerOptions): SkillServer {
  const pageSize = Math.max(1, options.pageSize ?? 100);
  const tools = options.tools ?? [];
  const upstreams = options.upstreams ?? [];
  const files = { cache: createFileCache(), watch: options.watch ?? createFolderWatch() };
  // the listings pages are still being cut from, newest last; a few are kept for slow pagers
  const listings: Listing[] = [];
  const leftOut = new Set(options.leaveOut);
  const connections = new Map<Server, Set<string>>();
  // the library's own listing last built, and what the upstreams relay since they were last listed
  let local: Listing | undefined;
  let relayed = NOTHING_RELAYED;
  const relaying = listRelayed(upstreams).then((first) => {
    relayed = first;
  });
  const read = (): Listing => {
    const pass = options.resources.read(options.cwd);
    // each skill's files are measured as the listing is built (`buildListing` declines any over the limits)
    const skills = servedSkills(pass.load("skill").items, { files: false }).served.filter(
      (skill) => !leftOut.has(skill.name),
    );
    const prompts = listedPrompts(pass.load("prompt").items);
    const last = listings.at(-1);
    const generation = (last?.generation ?? 0) + 1;
    local = buildListing(skills, prompts, files, generation, local);
    const listing = withRelayed(local, relayed, generation, last);
    if (last?.fingerprint === listing.fingerprint) return last;
    listings.push(listing);
    if (listings.length > KEPT_LISTINGS) listings.shift();
    if (last !== undefined) void announce(last, listing);
    return listing;
  };
  const announce = async (before: Listing, after: Listing): Promise<void> => {
    const digestsOf = (listing: Listing) =>
      new Map(listing.all.flatMap((one) => one.entry.resources.map((r) => [r.uri, r.digest])));
    const old = digestsOf(before);
    const now = digestsOf(after);
    for (const [server, subscribed] of connections) {
      await Promise.allSettled([
        server.sendResourceListChanged(),
        server.sendPromptListChanged(),
        ...[...subscribed]
          .filter((uri) => old.get(uri) !== now.get(uri))
          .map((uri) => server.sendResourceUpdated({ uri })),
      ]);
    }
  };
  const use = (skill: string, request: SkillUse["request"]): void =>
    options.onServed?.({ skill, request });
  const listingOf = (generation: number | undefined): Listing =>
    listings.find((one) => one.generation === generation) ?? read();
  const serverFor = (): Server => {
    const server = new Server(
      { name: options.name ?? "skillshelf", version: options.version ?? "0.0.0" },
      {
        capabilities: {
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          ...(tools.length === 0 ? {} : { tools: {} }),
          extensions: { [SKILLS_EXTENSION]: { directoryRead: true } },
        },
      },
    );
    const subscribed = new Set<string>();
    server.setRequestHandler(
      SkillsListRequest,
      afterPending((request) => {
        const page = pageOf(request.params?.cursor, listingOf, pageSize);
        return { ...CACHEABLE, skills: page.items.map((one) => one.entry), ...page.next };
      }),
    );
    server.setRequestHandler(
      SkillsGetRequest,
      afterPending((request) => {
        const skill = served(read(), request.params.uri, "skill");
        use(skill.name, "skills/get");
        return { ...CACHEABLE, skill: skill.entry };
      }),
    );
    server.setRequestHandler(
      ListResourcesRequestSchema,
      afterPending((request) => {
        const page = pageOf(request.params?.cursor, listingOf, pageSize);
        return {
          resources: page.items.map(({ name, description, entry }) => ({
            uri: entry.uri,
            name,
            description,
            mimeType: "text/markdown",
          })),
          ...page.next,
        };
      }),
    );
    // every served file is a listed resource: there are no templates to fill in
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
    server.setRequestHandler(
      ReadResourceRequestSchema,
      afterPending(async (request) => {
        const skill = served(read(), request.params.uri);
        const content = await readSkillFile(skill, request.params.uri);
        use(skill.name, "resources/read");
        return { contents: [content] };
      }),
    );
    server.setRequestHandler(
      DirectoryReadRequest,
      afterPending((request) => ({
        resources: directoryChildren(read(), request.params.uri),
      })),
    );
    server.setRequestHandler(
      SubscribeRequestSchema,
      afterPending((request) => {
        // only served files: what a client can watch is bounded by what it can read
        const { relative, files } = served(read(), request.params.uri);
        if (!files.has(relative))
          throw invalidParams(
            "mcp_uri_unknown",
            `${request.params.uri} names no file this server serves`,
            {
              uri: request.params.uri,
            },
          );
        subscribed.add(request.params.uri);
        return {};
      }),
    );
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
    server.setRequestHandler(
      ListPromptsRequestSchema,
      afterPending(() => ({
        prompts: read().prompts.map(promptDescription),
      })),
    );
    server.setRequestHandler(
      GetPromptRequestSchema,
      afterPending((request) =>
        getPrompt(read().prompts, request.params.name, request.params.arguments ?? {}),
      ),
    );
    serveTools(server, tools);
    server.onclose = () => connections.delete(server);
    connections.set(server, subscribed);
    return server;
  };
  return {
    connect: async (transport) => {
      await relaying;
      await serverFor().connect(transport);
    },
    refresh: async () => {
      await relaying;
      const now = await listRelayed(upstreams);
      if (now.key !== relayed.key) relayed = now;
      await pending();
      const before = listings.at(-1);
      return read() !== before;
    },
    withheld: async () => {
      await relaying;
      return [...relayed.failed, ...relayed.withheld.values()];
    },
    close: async () => {
      files.watch.close();
      await Promise.allSettled([
        ...[...connections.keys()].map((server) => server.close()),
        ...upstreams.map((upstream) => upstream.close()),
      ]);
    },
  };
}

// --- internal ---

const KEPT_LISTINGS = 8;

/**
 * What every `skills/list` and `skills/get` result carries (SEP-2640 stable, `CacheableResult`):
 * a complete result, fresh for a minute (connected clients are told of a change at once: the
 * resource list changed, each subscribed file updated), private to this user's library.
 */
const CACHEABLE = { resultType: "complete", ttlMs: 60_000, cacheScope: "private" } as const;

/** Once the events already waiting have been handled: a folder watch's news of a change among them. */
function pending(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A handler that answers after `pending()`: a file changed before a request was sent has been
 * seen by its folder's watch when the request is answered.
 */
function afterPending<R, A>(answer: (request: R) => A | Promise<A>): (request: R) => Promise<A> {
  return async (request) => {
    await pending();
    return answer(request);
  };
}
