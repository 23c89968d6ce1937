import { type SkillInvocationResult, skillInvocationContext } from "@skillshelf/catalog-view";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  resolveEnvironment,
  SkillshelfError,
} from "@skillshelf/core";
import { abortReason, isDeadlinePassed, race, toError } from "./_async.js";
import { type Merge, mergeLayer, mergeLayers, type Offer } from "./_merge.js";
import { candidateProblem, definitionProblem, SKILL_NAME, toSummary } from "./_validate.js";
import type {
  ProviderObservation,
  ReadOptions,
  RegistryChange,
  RegistryConfig,
  RegistryScope,
  RegistrySnapshot,
  SkillCandidate,
  SkillDefinition,
  SkillProvider,
  SkillRegistry,
  SkillSummary,
} from "./types.js";

/** The name of the built-in provider of runtime skills; no provider may take it. */
export const RUNTIME_PROVIDER = "runtime";
/** Rank of runtime skills unless they say otherwise: after project folders, before user folders. */
export const RUNTIME_RANK = 250;

interface ProviderRegistration {
  readonly provider: SkillProvider;
  readonly order: number;
  readonly controller: AbortController;
  live: boolean;
  /**
   * Its last list, still unanswered past its deadline: until it settles the provider is not asked
   * again nor waited for, so one hung provider costs one deadline, not one per read.
   */
  overdue: Promise<unknown> | undefined;
}

interface RuntimeRegistration {
  readonly candidate: SkillCandidate;
  readonly definition: SkillDefinition;
  readonly order: number;
}

interface Layer {
  readonly providers: Map<string, ProviderRegistration>;
  readonly runtime: Map<string, RuntimeRegistration>;
}

interface Catalog {
  readonly merge: Merge;
  readonly complete: boolean;
}

/**
 * Create a registry that merges skills from asynchronous providers and runtime registrations
 *. Providers are listed concurrently and merged deterministically; duplicate names
 * resolve by rank, then registration order, then each provider's own order, and a nearer scope's
 * layer replaces a farther one outright. Completed catalogs are cached per cwd, scope chain and
 * revision; every call takes an `AbortSignal`; a failing or hanging provider is contained and
 * reported, never fatal; listeners cannot veto a change. All state lives in the returned object.
 * @example
 * const registry = createSkillRegistry();
 * registry.registerProvider(createFilesystemProvider());
 * const skills = await registry.list({ cwd: "/work/app" });
 */
export function createSkillRegistry(config: RegistryConfig = {}): SkillRegistry {
  const cacheSize = config.cacheSize ?? 128;
  if (!Number.isInteger(cacheSize) || cacheSize < 1)
    throw new Error(`cacheSize must be a positive integer, not ${cacheSize}`);
  const timeoutMs = config.providerTimeoutMs ?? 10_000;
  const layers = new Map<string, Layer>();
  const cache = new Map<string, Catalog>();
  const listeners = new Set<(change: RegistryChange) => void | Promise<void>>();
  let revision = 0;
  let registrations = 0;
  let runtimeRegistrations = 0;

  const report = (diagnostic: Diagnostic): void => {
    try {
      config.onDiagnostic?.(diagnostic);
    } catch {
      // a failing logger must not break the registry
    }
  };

  const changed = (type: RegistryChange["type"], name: string): void => {
    revision += 1;
    cache.clear();
    const change: RegistryChange = { type, name, revision };
    for (const listener of [...listeners]) {
      const failed = (error: unknown) =>
        report(
          createDiagnostic(
            "warning",
            "listener_failed",
            `a change listener failed: ${toError(error).message}`,
            { details: { change: type } },
          ),
        );
      try {
        Promise.resolve(listener(change)).catch(failed);
      } catch (error) {
        failed(error);
      }
    }
  };

  const layerOf = (scope: RegistryScope | undefined): Layer => {
    const id = scope?.id ?? "";
    let layer = layers.get(id);
    if (layer === undefined) {
      layer = { providers: new Map(), runtime: new Map() };
      layers.set(id, layer);
    }
    return layer;
  };

  const listProvider = async (
    registration: ProviderRegistration,
    cwd: string,
    signal: AbortSignal,
  ) => {
    const { provider, order } = registration;
    let call: Promise<unknown> | undefined;
    try {
      if (registration.overdue !== undefined)
        throw new Error(`has not answered its last list within ${timeoutMs} ms`);
      call = Promise.resolve().then(() => provider.list({ cwd, signal }));
      const answer = await race(call, signal, timeoutMs, `provider "${provider.name}"`);
      const observation: ProviderObservation = Array.isArray(answer)
        ? { candidates: answer, complete: true }
        : (answer as ProviderObservation);
      if (!Array.isArray(observation?.candidates))
        throw new Error("list returned neither candidates nor an observation");
      const offers = observation.candidates.map((candidate, index): Offer => {
        const problem = candidateProblem(candidate, provider.name);
        if (problem !== undefined) throw new Error(`a candidate ${problem}`);
        return {
          candidate,
          providerOrder: order,
          index,
          load: (callSignal) =>
            race(
              provider.get(candidate, { cwd, signal: callSignal }),
              callSignal,
              timeoutMs,
              `provider "${provider.name}"`,
            ),
          invalidate: () => {
            if (registration.live) changed("invalidated", provider.name);
          },
        };
      });
      const found = Array.isArray(observation.diagnostics) ? observation.diagnostics : [];
      return { offers, complete: observation.complete === true, diagnostics: [...found] };
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      if (call !== undefined && isDeadlinePassed(error)) {
        const overdue = call;
        registration.overdue = overdue;
        const settled = () => {
          if (registration.overdue === overdue) registration.overdue = undefined;
        };
        overdue.then(settled, settled);
      }
      const diagnostic = createDiagnostic(
        "warning",
        "provider_failed",
        `provider "${provider.name}" failed and was skipped: ${toError(error).message}`,
        { details: { provider: provider.name } },
      );
      return { offers: [] as Offer[], complete: false, diagnostics: [diagnostic] };
    }
  };

  const collect = async (
    chain: readonly string[],
    cwd: string,
    signal: AbortSignal,
  ): Promise<Catalog> => {
    const chainLayers = chain.flatMap((id) => layers.get(id) ?? []);
    const listed = await Promise.all(
      chainLayers.map((layer) =>
        Promise.all(
          [...layer.providers.values()].map((registration) =>
            listProvider(registration, cwd, signal),
          ),
        ),
      ),
    );
    const merges = chainLayers.map((layer, index) => {
      const results = listed[index] ?? [];
      const runtimeOffers = [...layer.runtime.values()].map(
        (entry): Offer => ({
          candidate: entry.candidate,
          providerOrder: -1,
          index: entry.order,
          load: () => Promise.resolve(entry.definition),
          invalidate: () => {},
        }),
      );
      const merge = mergeLayer([...runtimeOffers, ...results.flatMap((result) => result.offers)]);
      return {
        ...merge,
        diagnostics: [...results.flatMap((result) => result.diagnostics), ...merge.diagnostics],
      };
    });
    const complete = listed.every((results) => results.every((result) => result.complete));
    const merge = mergeLayers(merges);
    for (const diagnostic of merge.diagnostics) report(diagnostic);
    return { merge, complete };
  };

  const read = async (options: ReadOptions): Promise<Catalog> => {
    const signal = options.signal ?? new AbortController().signal;
    if (signal.aborted) throw abortReason(signal);
    const cwd = resolveEnvironment({ cwd: options.cwd }).cwd;
    const chain = scopeChain(options.scope);
    const key = [cwd, ...chain].join("\0");
    const cached = cache.get(key);
    if (cached !== undefined) {
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    let catalog: Catalog | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = revision;
      catalog = await collect(chain, cwd, signal);
      if (revision !== started) continue;
      if (catalog.complete) {
        cache.set(key, catalog);
        if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
      }
      return catalog;
    }
    // the registry changed during both attempts: answer, but neither cache it nor call it complete
    return { ...(catalog as Catalog), complete: false };
  };

  const snapshot = async (options: ReadOptions = {}): Promise<RegistrySnapshot> => {
    const { merge, complete } = await read(options);
    const skills = [...merge.winners.values()]
      .map((offer) => toSummary(offer.candidate))
      .sort(byName);
    const shadowed = [...merge.shadowed].sort(byName);
    return { skills, complete, shadowed, diagnostics: merge.diagnostics };
  };

  /**
   * The winner of `name` and its loaded definition: `missing` when nothing answers the name,
   * `failed` when its provider could not load it (`invalidated`: the provider dropped its catalog
   * meanwhile, so what was listed changed), or what `judge` said instead of loading it.
   */
  const loadWinner = async <Verdict extends string = never>(
    name: string,
    options: ReadOptions,
    judge?: (summary: SkillSummary) => "load" | Verdict,
  ): Promise<
    | { status: "missing" | Verdict }
    | { status: "failed"; invalidated: boolean }
    | { status: "loaded"; definition: SkillDefinition }
  > => {
    if (!SKILL_NAME.test(name)) return { status: "missing" };
    const signal = options.signal ?? new AbortController().signal;
    const { merge } = await read(options);
    // re-checked after selection, also when the catalog came from the cache
    if (signal.aborted) throw abortReason(signal);
    const offer = merge.winners.get(name);
    if (offer === undefined) return { status: "missing" };
    const verdict = judge?.(toSummary(offer.candidate)) ?? "load";
    if (verdict !== "load") return { status: verdict };
    const started = revision;
    const failed = () => ({ status: "failed" as const, invalidated: revision !== started });
    const providerFailed = (problem: string) =>
      report(
        createDiagnostic(
          "warning",
          "provider_failed",
          `provider "${offer.candidate.provider}" ${problem}`,
          { details: { provider: offer.candidate.provider } },
        ),
      );
    let definition: unknown;
    try {
      definition = await offer.load(signal);
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      providerFailed(`failed to load "${name}": ${toError(error).message}`);
      return failed();
    }
    if (definition === undefined) return failed();
    const problem = definitionProblem(definition, offer.candidate.provider);
    if (problem !== undefined) providerFailed(`returned a definition that ${problem}`);
    // a definition under another name means the provider's catalog is stale
    if ((definition as SkillDefinition).name !== name) offer.invalidate();
    if (problem !== undefined || (definition as SkillDefinition).name !== name) return failed();
    return { status: "loaded", definition: definition as SkillDefinition };
  };

  return {
    registerProvider(create, options = {}) {
      const controller = new AbortController();
      let registration: ProviderRegistration | undefined;
      const control = {
        signal: controller.signal,
        invalidate: () => {
          if (registration?.live === true) changed("invalidated", registration.provider.name);
        },
      };
      const refuse = (code: Code, message: string): never => {
        controller.abort(new Error(`registration failed: ${message}`));
        throw new SkillshelfError(code, message);
      };
      let provider: SkillProvider;
      try {
        provider = create(control);
      } catch (error) {
        controller.abort(toError(error));
        throw error;
      }
      if (
        typeof provider?.name !== "string" ||
        provider.name === "" ||
        typeof provider.list !== "function" ||
        typeof provider.get !== "function"
      ) {
        refuse("provider_invalid", "a provider needs a name, list() and get()");
      }
      if (provider.name === RUNTIME_PROVIDER)
        refuse("provider_reserved", `the provider name "${RUNTIME_PROVIDER}" is reserved`);
      const layer = layerOf(options.scope);
      if (layer.providers.has(provider.name))
        refuse(
          "provider_duplicate",
          `a provider named "${provider.name}" is already registered in this layer`,
        );
      const live: ProviderRegistration = {
        provider,
        order: ++registrations,
        controller,
        live: true,
        overdue: undefined,
      };
      registration = live;
      layer.providers.set(provider.name, live);
      changed("provider-registered", provider.name);
      return () => {
        if (!live.live) return;
        live.live = false;
        layer.providers.delete(provider.name);
        controller.abort(new Error("disposed"));
        changed("provider-disposed", provider.name);
      };
    },

    register(skill, options = {}) {
      const definition: SkillDefinition = {
        ...toSummary({
          name: skill.name,
          description: skill.description,
          whenToUse: skill.whenToUse,
          invocation: {
            modelInvocable: skill.invocation?.modelInvocable ?? true,
            userInvocable: skill.invocation?.userInvocable ?? true,
          },
          source: skill.source ?? RUNTIME_PROVIDER,
          provider: RUNTIME_PROVIDER,
          path: skill.path,
          resourceBase: skill.resourceBase,
        }),
        content: skill.content,
        ...(skill.metadata === undefined ? {} : { metadata: skill.metadata }),
      };
      const candidate: SkillCandidate = {
        ...toSummary(definition),
        rank: skill.rank ?? RUNTIME_RANK,
        locator: definition,
      };
      const problem =
        definitionProblem(definition, RUNTIME_PROVIDER) ??
        candidateProblem(candidate, RUNTIME_PROVIDER);
      if (problem !== undefined)
        throw new SkillshelfError("skill_invalid", `runtime skill ${problem}`);
      const layer = layerOf(options.scope);
      if (layer.runtime.has(skill.name)) {
        report(
          createDiagnostic(
            "warning",
            "runtime_duplicate",
            `runtime skill "${skill.name}" is already registered in this layer; the first registration stays`,
            { details: { name: skill.name } },
          ),
        );
        return () => {};
      }
      const entry: RuntimeRegistration = { candidate, definition, order: ++runtimeRegistrations };
      layer.runtime.set(skill.name, entry);
      changed("runtime-registered", skill.name);
      return () => {
        if (layer.runtime.get(skill.name) !== entry) return;
        layer.runtime.delete(skill.name);
        changed("runtime-disposed", skill.name);
      };
    },

    list: async (options) => [...(await snapshot(options)).skills],
    snapshot,

    async get(name, options = {}) {
      const loaded = await loadWinner(name, options);
      return loaded.status === "loaded" ? loaded.definition : undefined;
    },

    async invoke(name, options = {}) {
      const refused = (
        code: "skill_unavailable" | "skill_not_user_invocable" | "skill_changed",
        message: string,
      ): SkillInvocationResult => ({
        ok: false,
        refusal: createDiagnostic("error", code, message, { details: { name } }),
      });
      const { listed } = options;
      const loaded = await loadWinner(name, options, (summary) => {
        if (listed !== undefined && !sameSummary(summary, listed)) return "changed";
        return summary.invocation.userInvocable ? "load" : "refused";
      });
      switch (loaded.status) {
        case "missing":
          return refused("skill_unavailable", `no skill named "${name}" is available`);
        case "refused":
          return refused(
            "skill_not_user_invocable",
            `"${name}" is not user-invocable: only the model may start it`,
          );
        case "changed":
          return refused("skill_changed", `"${name}" changed since it was listed`);
        case "failed":
          return loaded.invalidated
            ? refused("skill_changed", `"${name}" changed since it was listed`)
            : refused("skill_unavailable", `"${name}" could not be loaded`);
        case "loaded": {
          const { definition } = loaded;
          return {
            ok: true,
            invocation: skillInvocationContext(definition, options.args ?? "", {
              source: definition.source,
              provider: definition.provider,
              ...(definition.path === undefined ? {} : { path: definition.path }),
            }),
          };
        }
      }
    },

    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

// --- internal ---

/** Whether a listed summary still describes the skill answering its name. */
function sameSummary(now: SkillSummary, listed: SkillSummary): boolean {
  return (
    now.provider === listed.provider &&
    now.path === listed.path &&
    now.description === listed.description &&
    now.source === listed.source
  );
}

/** Code-point order of names, stable for equal names. */
function byName(a: { readonly name: string }, b: { readonly name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Layer ids a read merges: the global layer, then the scope's ancestors from farthest to itself. */
function scopeChain(scope: RegistryScope | undefined): string[] {
  const ids: string[] = [];
  for (let current = scope; current !== undefined; current = current.parent)
    ids.unshift(current.id);
  return ["", ...ids];
}
