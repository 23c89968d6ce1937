import { dirname, isAbsolute, relative, sep } from "node:path";
import { type Environment, identityKey, type PackageSource } from "@skillshelf/core";
import { createSkillCache } from "@skillshelf/skills-loader";
import {
  describeSource,
  discoverLibrary,
  folderInPlace,
  type PinnedRow,
  type RowChange,
  type StagedSource,
  type StageOptions,
  sourcePinnedAt,
  writeIndexRows,
} from "@skillshelf/sources";
import type { PackageManifest } from "@skillshelf/store";
import { validatePackage } from "@skillshelf/validation";
import type { StagePlanning } from "./_planning.js";
import { refusal } from "./_refusal.js";
import { type Staged, stagePackages } from "./_stage.js";
import { createSourceFetches, createStagingSet } from "./_staging.js";
import { resolveInstallTarget } from "./_targets.js";
import type { LifecycleProgress, Refusal } from "./types.js";

/** What `registerPackages` writes, and into which index. */
export interface RegisterRequest {
  readonly environment: Environment;
  /** Folders or sources (as `install` takes them), each read for the packages it holds. */
  readonly targets: readonly string[];
  /** The index file to write (a scope's `library.yaml`, or any `--index FILE`). */
  readonly index: string;
  /** Skills to pick out of a collection; default every skill it holds. */
  readonly skills?: readonly string[] | undefined;
  readonly stage?: StageOptions | undefined;
  readonly progress?: ((event: LifecycleProgress) => void) | undefined;
}

/** One row `registerPackages` wrote (or found already as it would write it). */
export interface RegisteredRow extends PinnedRow {
  readonly change: RowChange;
  /** The target it came from, as given. */
  readonly target: string;
}

/** What `registerPackages` did. */
export interface RegisterResult {
  readonly index: string;
  readonly rows: readonly RegisteredRow[];
  /** What could not be registered, each with why (nothing of it was written). */
  readonly refused: readonly { readonly target: string; readonly refusal: Refusal }[];
}

/**
 * Register packages in an index: each target is staged as `install` would stage it (a folder
 * with a manifest is one package; a collection gives each chosen skill as a `skill` package),
 * validated, and written as a pinned row — `kind`, `name`, `description`, `version`,
 * `sourceUrl` pinned to the commit or digest fetched (a local folder relative to the index), the
 * tree digest as `sha256` and `requires` — replacing the row of the same `kind:name` (see
 * `writeIndexRows`). A package that does not validate, or a source that cannot be fetched, is
 * refused and written nowhere; the others are still written.
 */
export async function registerPackages(request: RegisterRequest): Promise<RegisterResult> {
  const { environment } = request;
  // a collection refused until skills are picked is kept, and staged again with all of them
  const fetches = createSourceFetches();
  const planning: StagePlanning = {
    environment,
    request: {
      targets: request.targets,
      skills: request.skills,
      stage: request.stage,
      progress: request.progress,
      fetches,
    },
    discovery: discoverLibrary(environment),
    staging: createStagingSet(),
    audits: new WeakMap(),
    skillFiles: createSkillCache(),
    diagnostics: [],
  };
  const pick =
    request.skills === undefined || request.skills.length === 0 ? undefined : request.skills;
  const rows: (PinnedRow & { target: string })[] = [];
  const refused: { target: string; refusal: Refusal }[] = [];
  try {
    for (const target of request.targets) {
      const resolved = resolveInstallTarget(target, [], environment);
      if (resolved.kind !== "source") {
        refused.push({
          target,
          refusal:
            resolved.kind === "refused"
              ? resolved.refusal
              : refusal("package_unknown", `${target} is not a folder or a source`),
        });
        continue;
      }
      for (const staged of await stagedPackages(planning, resolved.source, pick)) {
        if ("refusal" in staged) {
          if (staged.refusal.skipped !== true) refused.push({ target, refusal: staged.refusal });
          continue;
        }
        const checked = validatePackage(staged.staged.dir, {
          manifest: staged.manifest,
          treeDigested: true,
          environment,
        });
        const errors = checked.diagnostics.filter((one) => one.severity === "error");
        if (errors.length > 0) {
          refused.push({
            target,
            refusal: refusal(
              "package_invalid",
              `${identityKey(staged.manifest.kind, staged.manifest.id)} does not validate; it is not registered`,
              { diagnostics: errors },
            ),
          });
          continue;
        }
        rows.push({ ...pinnedRow(staged.manifest, staged.staged, request.index), target });
      }
    }
  } finally {
    planning.staging.release();
    fetches.release();
  }
  const changes = rows.length === 0 ? [] : await writeIndexRows(request.index, rows);
  return {
    index: request.index,
    rows: rows.map((row, at) => ({ ...row, change: changes[at] ?? "unchanged" })),
    refused,
  };
}

// --- internal ---

/** A package's folder as it is, or every skill of a collection unless `pick` names some. */
async function stagedPackages(
  planning: StagePlanning,
  source: PackageSource,
  pick: readonly string[] | undefined,
): Promise<Staged[]> {
  const staged = await stagePackages(planning, source, pick);
  const [only] = staged;
  return only !== undefined &&
    "refusal" in only &&
    only.refusal.code === "collection_choice_required"
    ? stagePackages(planning, source, ["*"])
    : staged;
}

/** The index row of a staged package: pinned to what was fetched, a folder relative to the index. */
function pinnedRow(manifest: PackageManifest, staged: StagedSource, index: string): PinnedRow {
  const { source } = staged;
  const folder = folderInPlace(source);
  const sourceUrl =
    folder !== undefined
      ? relativeSource(dirname(index), folder)
      : describeSource(sourcePinnedAt(source, staged.commit));
  return {
    kind: manifest.kind,
    name: manifest.id,
    description: manifest.description ?? manifest.id,
    version: manifest.version ?? "0.0.0",
    sourceUrl,
    sha256: staged.digest,
    requires: manifest.requires,
  };
}

/** `path` as an index beside `folder` writes it: `./…` or `../…`, `/`-separated. */
function relativeSource(folder: string, path: string): string {
  const written = relative(folder, path);
  if (written === "") return ".";
  if (isAbsolute(written)) return path;
  const posix = written.split(sep).join("/");
  return posix.startsWith("..") ? posix : `./${posix}`;
}
