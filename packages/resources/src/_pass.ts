import {
  type Diagnostic,
  type Environment,
  type PackageCopyRef,
  RESOURCE_KINDS,
  type ResourceKind,
  type ResourceRoot,
  sortDiagnostics,
} from "@skillshelf/core";
import { readAdvisories } from "@skillshelf/policy";
import type { SkillCache } from "@skillshelf/skills-loader";
import {
  linkedCopies,
  loadableOwner,
  PACKAGE_SCOPES,
  type PackageCopy,
  type PackageSnapshot,
  readPackageSnapshot,
  type ScopeCache,
  snapshotRoots,
  withPackageReferences,
} from "@skillshelf/store";
import { judgeKind } from "./_admission.js";
import { revokedCopies, revokedDiagnostic } from "./_advisories.js";
import { consentedRoots, consentStatus } from "./_consents.js";
import { KINDS, type KindLoadInput, type KindLoads } from "./kinds.js";
import type { KindPass, ReadPass } from "./types.js";

/** What a pass is made with. */
export interface PassSettings {
  readonly trustImports: boolean;
  /** Reuse skills read before (a `resources` instance's cache); none for a one-off pass. */
  readonly cache?: SkillCache | undefined;
  readonly toolNames?: readonly string[] | undefined;
  /** Keep every skill's body, not only package-owned ones. */
  readonly bodies?: boolean | undefined;
  /** The snapshot to read installed packages from (else one is read). */
  readonly snapshot?: PackageSnapshot | undefined;
  /** Reuse parses of unchanged scope files (`createScopeCache`), as the snapshot's reader did. */
  readonly scopeCache?: ScopeCache | undefined;
  /** The loose roots of each kind named, instead of its default roots (packages are still read). */
  readonly looseRoots?: PassRoots | undefined;
}

/** The roots of a pass over given folders: a kind not named has none. */
export type PassRoots = { readonly [K in ResourceKind]?: readonly ResourceRoot[] };

/**
 * Begin a read pass: the one way anything above the loaders runs them. With `roots`, the pass
 * reads those folders alone (a package being validated, compared or inspected). Without, it
 * reads one package snapshot (each installed tree digested once) and every kind's loadable
 * copies' roots (store's `snapshotRoots`) before its default roots, each foreign package or other
 * agent's folder a person trusted (`trust.json`, while its digest holds) lifted to trusted. Either way each kind is
 * loaded at most once, on first ask, by its entry in `KINDS`.
 */
export function beginPass(
  environment: Environment,
  settings: PassSettings & { readonly roots: PassRoots },
): KindPass;
export function beginPass(environment: Environment, settings: PassSettings): ReadPass;
export function beginPass(
  environment: Environment,
  settings: PassSettings & { readonly roots?: PassRoots },
): KindPass | ReadPass {
  const given = settings.roots;
  if (given !== undefined)
    return kindPass(environment, settings, (kind) => [...(given[kind] ?? [])], noOwner);
  const snapshot =
    settings.snapshot ?? readPackageSnapshot(environment, { cache: settings.scopeCache });
  const owner = loadableOwner(snapshot);
  const consents = consentStatus(environment, snapshot);
  const consented = consentedRoots(consents, environment);
  const revoked = withheldCopies(environment, snapshot);
  const roots = (kind: ResourceKind) =>
    [
      // a copy an advisory followed here revokes is not given to a model; nothing is deleted
      ...snapshotRoots(snapshot, kind).filter(
        (root) =>
          root.owner === undefined || !revoked.copies.has(`${root.owner.scope}|${root.owner.id}`),
      ),
      ...(settings.looseRoots?.[kind] ?? KINDS[kind].defaultRoots(environment)),
    ].map(consented);
  const pass: KindPass = kindPass(environment, settings, roots, owner, {
    copiesOf: () =>
      new Map(
        PACKAGE_SCOPES.flatMap((scope) => linkedCopies(environment, scope, settings.scopeCache)),
      ),
    knownSkills: () => pass.load("skill").items.map((skill) => skill.name),
  });
  return {
    ...pass,
    snapshot,
    diagnostics: sortDiagnostics([
      ...snapshotDiagnostics(snapshot),
      ...consents.diagnostics,
      ...revoked.diagnostics,
    ]),
    owner,
  };
}

// --- internal ---

/**
 * The loadable copies an advisory feed kept here revokes (by `scope|id`), each said as a warning,
 * and the feeds that did not read. No feed, no cost beyond one `lstat`.
 */
function withheldCopies(
  environment: Environment,
  snapshot: PackageSnapshot,
): { readonly copies: ReadonlySet<string>; readonly diagnostics: readonly Diagnostic[] } {
  const { feeds, diagnostics } = readAdvisories(environment);
  const revoked = revokedCopies(snapshot, feeds).filter((hit) => hit.copy.loadable);
  return {
    copies: new Set(revoked.map(({ copy }) => `${copy.scope}|${copy.id}`)),
    diagnostics: [
      ...diagnostics,
      ...revoked.map((hit) => ({
        ...revokedDiagnostic(
          hit,
          `${hit.copy.id} (${hit.copy.scope})`,
          "warning",
          "; it is not given to a model",
        ),
        path: hit.copy.dir,
      })),
    ],
  };
}

type Owner = (resource: { readonly owner?: PackageCopyRef | undefined }) => PackageCopy | undefined;

const noOwner: Owner = () => undefined;

/** What every kind's loader returns for no roots. */
function nothingLoaded<K extends ResourceKind>(): KindLoads[K] {
  const nothing: KindLoads[ResourceKind] = { items: [], diagnostics: [], collisions: [] };
  return nothing as KindLoads[K];
}

function kindPass(
  environment: Environment,
  settings: PassSettings,
  roots: (kind: ResourceKind) => ResourceRoot[],
  owner: Owner,
  extra: Pick<KindLoadInput, "copiesOf" | "knownSkills"> = {},
): KindPass {
  const loads: { [K in ResourceKind]?: KindLoads[K] } = {};
  const read = <K extends ResourceKind>(kind: K): KindLoads[K] => {
    const kindRoots = roots(kind);
    // no folder of this kind to read (a package declaring none): its loader is not started
    if (kindRoots.length === 0) return nothingLoaded<K>();
    const spec = KINDS[kind];
    const loaded = spec.load({
      ...environment,
      ...extra,
      roots: kindRoots,
      trustImports: settings.trustImports,
      cache: settings.cache,
      toolNames: settings.toolNames,
      bodies: settings.bodies === true,
    });
    const body = spec.body;
    return body === undefined ? loaded : withPackageReferences(loaded, owner, body.of, body.with);
  };
  const load = <K extends ResourceKind>(kind: K): KindLoads[K] => {
    const done = loads[kind];
    if (done !== undefined) return done;
    const loaded = read(kind);
    loads[kind] = loaded;
    return loaded;
  };
  const pass: KindPass = {
    environment,
    roots,
    load,
    admission: () => {
      const judged = RESOURCE_KINDS.map((kind) => judgeKind(pass, kind, owner));
      return {
        resources: judged.flatMap((kind) => kind.resources),
        diagnostics: judged.flatMap((kind) => kind.diagnostics),
      };
    },
  };
  return pass;
}

/** What the snapshot found wrong: scope-level findings and those of copies that are loaded or broken (a disabled or shadowed copy is the user's choice). */
function snapshotDiagnostics(snapshot: PackageSnapshot): Diagnostic[] {
  return sortDiagnostics([
    ...snapshot.diagnostics,
    ...snapshot.copies
      .filter((copy) => copy.state !== "disabled" && copy.state !== "shadowed")
      .flatMap((copy) => copy.diagnostics),
  ]);
}
