import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  codedWriteError,
  digestTree,
  errnoCode,
  isPackageId,
  parseJson,
  readRegularFile,
  SkillshelfError,
  siblingName,
} from "@skillshelf/core";
import { type SourceLimits, unpackArchive } from "./_archive.js";
import { codedFailure, stagingFolder } from "./_failure.js";
import { sshSign, verifiedSigner } from "./ssh-signature.js";
import { packTarGz } from "./tar-pack.js";

/**
 * What `bundle.json`, at the top of an offline bundle, says: the scope it was made of, when, the
 * scope's lock as it was, and each package's tree digest (its files under `packages/<id>/`).
 */
export interface BundleManifest {
  readonly version: 1;
  readonly scope: "user" | "project";
  readonly created: string;
  /** The scope's `lock.json` as it was read (its reader checks it). */
  readonly lock: unknown;
  /** Each package's tree digest, by id: the lock's, checked against the tree when it was bundled. */
  readonly packages: Readonly<Record<string, string>>;
}

/** An offline bundle opened: every tree checked against its digest, the signature against `bundle.json`. */
export interface OpenedBundle {
  readonly manifest: BundleManifest;
  /** Who signed `bundle.json` (`ssh:SHA256:…`), when it is signed. */
  readonly signer?: string | undefined;
  /**
   * The unpacked folder of package `id` and its tree digest (read when the bundle was opened),
   * `undefined` when the bundle holds none.
   */
  treeOf(id: string): { readonly dir: string; readonly digest: string } | undefined;
  /** The bill of materials it carries (CycloneDX JSON), if any. */
  readonly sbom?: string | undefined;
  /** Delete the unpacked bundle; safe to call again. */
  release(): void;
}

/** What a bundle may bring in: 1 GiB read, 2 GiB unpacked, 200,000 members. */
export const DEFAULT_BUNDLE_LIMITS: SourceLimits = {
  maxDownloadBytes: 1024 * 1024 * 1024,
  maxUnpackedBytes: 2 * 1024 * 1024 * 1024,
  maxEntries: 200_000,
};

/**
 * Write an offline bundle to `file` (a `.tar.gz`, written whole then renamed into place):
 * `bundle.json`, its SSH signature `bundle.json.sig` when `sign` names a key, `sbom.cdx.json` when
 * given, and each package's tree under `packages/<id>/`, members in name order without times or
 * owners. Its size in bytes.
 */
export async function writeBundleFile(
  file: string,
  content: {
    readonly manifest: BundleManifest;
    readonly trees: ReadonlyMap<string, string>;
    readonly sbom?: string | undefined;
    readonly sign?:
      | { readonly key: string; readonly env: Readonly<Record<string, string | undefined>> }
      | undefined;
  },
): Promise<number> {
  const manifest = Buffer.from(`${JSON.stringify(content.manifest, null, 2)}\n`);
  const files = [
    { name: BUNDLE_MANIFEST, data: manifest },
    ...(content.sign === undefined
      ? []
      : [
          {
            name: `${BUNDLE_MANIFEST}.sig`,
            data: await sshSign(manifest, content.sign.key, content.sign.env),
          },
        ]),
    ...(content.sbom === undefined ? [] : [{ name: BUNDLE_SBOM, data: content.sbom }]),
  ];
  const trees = [...content.trees]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, dir]) => ({ prefix: `${PACKAGES}/${id}`, dir }));
  const bytes = await packTarGz({ files, trees });
  const partial = join(dirname(file), siblingName(basename(file), "bundle"));
  try {
    writeFileSync(partial, bytes, { flag: "wx", mode: 0o644 });
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "EISDIR")
      throw new SkillshelfError(
        "bundle_invalid",
        `${file} cannot be written: no such folder, or a folder of that name`,
        { path: file, cause: error },
      );
    throw codedWriteError(error, { path: file });
  }
  return bytes.byteLength;
}

/**
 * Open the bundle `file` offline: unpack it into a private folder under every archive rule
 * (`unpackArchive`, within `limits`), read `bundle.json` (`bundle_invalid` when it is not one),
 * check its signature when it carries one (`signature_invalid`), and digest every package's tree
 * against `bundle.json` (`digest_mismatch`, naming the package): one byte changed anywhere
 * refuses the whole bundle before anything is used.
 */
export async function openBundle(
  file: string,
  options: { readonly tempDir?: string | undefined; readonly limits?: Partial<SourceLimits> } = {},
): Promise<OpenedBundle> {
  const limits = { ...DEFAULT_BUNDLE_LIMITS, ...options.limits };
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, limits.maxDownloadBytes);
  } catch (error) {
    throw invalid(file, `cannot be read (${errnoCode(error) ?? String(error)})`);
  }
  // a folder of its own, not made yet: unpacking makes it
  const { dir, release } = stagingFolder(options.tempDir, "skillshelf-bundle-");
  try {
    await unpackArchive(bytes, dir, { ...limits, format: "tar.gz" }).catch((error: unknown) => {
      throw invalid(
        file,
        `is not a whole .tar.gz archive (${error instanceof Error ? error.message : String(error)})`,
      );
    });
    const manifestPath = join(dir, BUNDLE_MANIFEST);
    const manifestBytes = readIfFile(manifestPath);
    if (manifestBytes === undefined) throw invalid(file, `holds no ${BUNDLE_MANIFEST}`);
    const manifest = manifestOf(manifestBytes, file);
    const signature = readIfFile(join(dir, `${BUNDLE_MANIFEST}.sig`));
    const signer =
      signature === undefined
        ? undefined
        : await verifiedSigner(
            manifestBytes,
            signature,
            { name: file, details: { path: file } },
            { tempDir: options.tempDir },
          );
    for (const [id, digest] of Object.entries(manifest.packages)) {
      const tree = join(dir, PACKAGES, id);
      const observed = lstatSync(tree, { throwIfNoEntry: false })?.isDirectory()
        ? digestTree(tree).digest
        : undefined;
      if (observed !== digest)
        throw new SkillshelfError(
          "digest_mismatch",
          `${file}: the package ${id} ${observed === undefined ? "is missing" : `digests to ${observed}`}, not the ${digest} the bundle records`,
          { path: file, details: { id, expected: digest, observed } },
        );
    }
    const sbom = readIfFile(join(dir, BUNDLE_SBOM))?.toString("utf8");
    return {
      manifest,
      ...(signer === undefined ? {} : { signer }),
      ...(sbom === undefined ? {} : { sbom }),
      treeOf: (id) => {
        const digest = Object.hasOwn(manifest.packages, id) ? manifest.packages[id] : undefined;
        return digest === undefined ? undefined : { dir: join(dir, PACKAGES, id), digest };
      },
      release,
    };
  } catch (error) {
    release();
    throw codedFailure(error);
  }
}

// --- internal ---

const BUNDLE_MANIFEST = "bundle.json";
const BUNDLE_SBOM = "sbom.cdx.json";
const PACKAGES = "packages";

function invalid(file: string, problem: string): SkillshelfError {
  return new SkillshelfError("bundle_invalid", `${file} ${problem}`, { path: file });
}

function readIfFile(path: string): Buffer | undefined {
  return lstatSync(path, { throwIfNoEntry: false })?.isFile() === true
    ? readFileSync(path)
    : undefined;
}

/** `bundle.json` read: version 1, its scope, time, lock and a digest per package id. */
function manifestOf(bytes: Buffer, file: string): BundleManifest {
  const parsed = parseJson(bytes.toString("utf8"));
  const value = (parsed.ok ? parsed.value : undefined) as Partial<BundleManifest> | undefined;
  const packages = value?.packages;
  if (
    value?.version !== 1 ||
    (value.scope !== "user" && value.scope !== "project") ||
    typeof value.created !== "string" ||
    typeof value.lock !== "object" ||
    value.lock === null ||
    typeof packages !== "object" ||
    packages === null ||
    !Object.entries(packages).every(
      ([id, digest]) =>
        isPackageId(id) && typeof digest === "string" && /^[0-9a-f]{64}$/.test(digest),
    )
  )
    throw invalid(file, `has a ${BUNDLE_MANIFEST} that is not a Skillshelf bundle's (version 1)`);
  return value as BundleManifest;
}
