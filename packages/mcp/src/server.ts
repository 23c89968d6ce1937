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
import type { Resources } from "@skillshelf/resources";
import { SKILLS_EXTENSION } from "@skillshelf/sources";
import { invalidParams } from "./_errors.js";
import { createFileCache } from "./_files.js";
import { buildListing, type Listing } from "./_listing.js";
import { pageOf } from "./_pages.js";
import { getPrompt, listedPrompts, promptDescription } from "./_prompts.js";
import { directoryChildren, readSkillFile, served } from "./_read.js";
import { DirectoryReadRequest, SkillsGetRequest, SkillsListRequest } from "./_requests.js";
import { createFolderWatch } from "./_watch.js";
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
  /** Close every connection. */
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
  const files = { cache: createFileCache(), watch: createFolderWatch() };
  // the listings pages are still being cut from, newest last; a few are kept for slow pagers
  const listings: Listing[] = [];
  const connections = new Map<Server, Set<string>>();
  const read = (): Listing => {
    const pass = options.resources.read(options.cwd);
    // each skill's files are measured as the listing is built (`buildListing` declines any over the limits)
    const skills = servedSkills(pass.load("skill").items, { files: false }).served;
    const prompts = listedPrompts(pass.load("prompt").items);
    const last = listings.at(-1);
    const listing = buildListing(skills, prompts, files, (last?.generation ?? 0) + 1, last);
    if (last?.fingerprint === listing.fingerprint) return last;
    listings.push(listing);
    if (listings.length > KEPT_LISTINGS) listings.shift();
    if (last !== undefined) void announce(last, listing);
    return listing;
  };
  const announce = async (before: Listing, after: Listing): Promise<void> => {
    const digestsOf = (listing: Listing) =>
      new Map(listing.skills.flatMap((one) => one.entry.resources.map((r) => [r.uri, r.digest])));
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
      afterPending((request) => ({
        ...CACHEABLE,
        skill: served(read(), request.params.uri, "skill").entry,
      })),
    );
    server.setRequestHandler(
      ListResourcesRequestSchema,
      afterPending((request) => {
        const page = pageOf(request.params?.cursor, listingOf, pageSize);
        return {
          resources: page.items.map(({ skill, entry }) => ({
            uri: entry.uri,
            name: skill.name,
            description: skill.description,
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
      afterPending((request) => ({
        contents: [readSkillFile(read(), request.params.uri)],
      })),
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
      await serverFor().connect(transport);
    },
    refresh: async () => {
      await pending();
      const before = listings.at(-1);
      return read() !== before;
    },
    close: async () => {
      files.watch.close();
      await Promise.allSettled([...connections.keys()].map((server) => server.close()));
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
function afterPending<R, A>(answer: (request: R) => A): (request: R) => Promise<A> {
  return async (request) => {
    await pending();
    return answer(request);
  };
}
