import { mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { isSkillshelfError, normalizeRelativePath, SkillshelfError } from "@skillshelf/core";
import validRange from "semver/ranges/valid.js";
import validatePackageName from "validate-npm-package-name";
import { DEFAULT_ARCHIVE_LIMITS, unpackArchive } from "../_archive.js";
import {
  type NpmRequest,
  npmTarball,
  pickNpmVersion,
  registryIntegrity,
  registryOf,
} from "../_npm-registry.js";
import { createHttpClient } from "../http/client.js";
import { mirrored } from "../mirrors.js";
import { type Fetcher, fetchSignal, httpOf, type StageOptions } from "./_fetcher.js";
import { subfolderOuter, subfolderWithin } from "./_subfolder.js";
import {
  fragmentFields,
  insecureUrl,
  invalidSource,
  refInvalid,
  splitFragment,
  splitSubfolder,
  withSubfolder,
} from "./_syntax.js";

/**
 * A package of an npm registry, `npm:<name>[@range]`, resolved as npm resolves it (its scoped
 * registries, tokens and version picking, by npm's own libraries) with the user's npm
 * configuration, and fetched through the one HTTP client; the tarball is checked against its
 * integrity (the registry's, or the lock's on a restore), then unpacked under every archive rule.
 * Its revision is `<version>@<integrity>`, what the lock pins.
 */
export const NPM_FETCHER: Fetcher<"npm"> = {
  syntax: "npm:<name>[@range]//<folder>",
  parse: (text) => {
    if (!text.startsWith("npm:")) return undefined;
    const [body = "", fragment] = splitFragment(text.slice(4));
    const [spec, subfolder] = splitSubfolder(body);
    const parsed = registrySpec(spec);
    if (parsed === undefined)
      return invalidSource(`${text} is not an npm package name with an optional version range`);
    if (parsed.range === null)
      return invalidSource(
        `${text} names no package of a registry; git, file and URL specs are not fetched through npm`,
      );
    const fields = fragmentFields(fragment, "path", ["path"]);
    if (!fields.ok) return fields;
    if (subfolder !== undefined && fields.path !== undefined)
      return refInvalid(`${text} names its folder twice (//${subfolder} and #path=${fields.path})`);
    const { name, range } = parsed;
    return withSubfolder(
      { type: "npm", name, ...(range === undefined ? {} : { range }) },
      subfolder ?? fields.path,
    );
  },
  fetch: async (source, into, options) => {
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
    const request = npmRequest(source, options);
    const version = await pickNpmVersion(request, source.range ?? "latest");
    const integrity = source.integrity ?? registryIntegrity(version);
    const bytes = await npmTarball(
      request,
      version,
      { maxBytes: limits.maxDownloadBytes, maxUnpackedBytes: limits.maxUnpackedBytes },
      integrity,
    );
    const revision = `${version.version}@${integrity}`;
    if (source.path !== undefined) {
      await unpackArchive(bytes, into.dir, { ...limits, format: "tar.gz", subfolder: source.path });
      return { commit: revision };
    }
    const unpacked = join(into.container, "npm-package");
    await unpackArchive(bytes, unpacked, { ...limits, format: "tar.gz" });
    keepDeclaredSkills(unpacked, into.dir);
    return { commit: revision };
  },
  describe: (source) =>
    `npm:${source.name}${source.range === undefined ? "" : `@${source.range}`}${source.path === undefined ? "" : `//${source.path}`}`,
  origin: (source, commit) => ({
    kind: "npm",
    url: source.name,
    ...(source.range === undefined ? {} : { ref: source.range }),
    ...(commit === undefined ? {} : { commit }),
  }),
  within: subfolderWithin,
  outer: subfolderOuter,
  // a revision is `<version>@<integrity>`
  revisionText: (revision) => `version ${revision.slice(0, revision.indexOf("@"))}`,
  place: (source) => `npm:${source.name}`,
  upstreamUrl: (source, options) => registryOf(source.name, options.npm?.() ?? {}).href,
  pinned: (source) => /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(source.range ?? ""),
  packageUrl: (source, commit) => {
    const [namespace, name] = source.name.startsWith("@")
      ? (source.name.split("/") as [string, string])
      : [undefined, source.name];
    // a revision is `<version>@<integrity>`
    return { type: "npm", namespace, name, version: commit?.split("@")[0] };
  },
  atRef: (source, ref) => ({ ...source, range: ref, integrity: undefined }),
  pinnedAt: (source, revision) => {
    const at = revision.indexOf("@");
    return { ...source, range: revision.slice(0, at), integrity: revision.slice(at + 1) };
  },
  newest: async (source, options) => {
    try {
      const version = await pickNpmVersion(npmRequest(source, options), source.range ?? "latest");
      return `${version.version}@${registryIntegrity(version)}`;
    } catch (error) {
      if (isSkillshelfError(error) && error.code === "npm_version_missing") return undefined;
      throw error;
    }
  },
};

// --- internal ---

/**
 * The requests of one npm source: its spec, the user's npm settings, this fetch's timeout, and
 * the HTTP client — with the proxy npm's settings name (`https-proxy`, `proxy`, `noproxy`) when
 * they name one, as npm would use it. A registry for the spec over plain http to another host is
 * refused (`source_insecure`), as npm's own advice and docker's rule for registries have it.
 */
function npmRequest(
  source: { readonly name: string; readonly range?: string | undefined },
  options: StageOptions,
): NpmRequest {
  const spec = `${source.name}@${source.range ?? "latest"}`;
  const settings = mirroredRegistry(spec, options);
  const refused = insecureUrl(registryOf(spec, settings));
  if (refused !== undefined)
    throw new SkillshelfError(refused.code, `the npm registry for ${spec}: ${refused.problem}`, {
      details: { spec },
    });
  const https = settings["https-proxy"] ?? settings.proxy;
  const own = https !== undefined || settings.noproxy !== undefined;
  const env = {
    ...(options.env ?? process.env),
    ...(https === undefined ? {} : { https_proxy: https }),
    ...(settings.proxy === undefined ? {} : { http_proxy: settings.proxy }),
    ...(settings.noproxy === undefined ? {} : { no_proxy: settings.noproxy }),
  };
  return {
    spec,
    name: source.name,
    settings,
    signal: fetchSignal(options),
    http: httpOf(own ? { ...options, http: createHttpClient(env) } : options),
  };
}

/**
 * The user's npm settings for `spec`, its registry rewritten to a mirror when a mirror rule
 * rewrites it: npm then asks the mirror, with the credentials configured for the mirror.
 */
function mirroredRegistry(spec: string, options: StageOptions): Readonly<Record<string, string>> {
  const settings = options.npm?.() ?? {};
  const hit = mirrored(registryOf(spec, settings).href, options.mirrors);
  if (hit === undefined) return settings;
  const scope = /^(@[^/]+)\//.exec(spec)?.[1];
  return {
    ...settings,
    registry: hit.url,
    ...(scope === undefined ? {} : { [`${scope}:registry`]: hit.url }),
  };
}

/**
 * `<name>[@<spec>]` as npm reads a registry package's: `undefined` for a name npm refuses, a
 * `null` range for a spec that is not a registry's (git, a file, a URL, an alias), else the range,
 * exact version or dist-tag (`undefined`: the latest). npm's own rules, through npm's name check
 * and semver (loose, as npm parses ranges); a dist-tag is any spec a URL needs not escape. Not
 * `npm-package-arg`: it loads hosted-git-info and an LRU cache at every start (about 3 ms) for
 * the git specs refused here anyway.
 */
function registrySpec(
  text: string,
): { readonly name: string; readonly range: string | null | undefined } | undefined {
  // a scoped name's own `@` comes first
  const at = text.indexOf("@", text.startsWith("@") ? 1 : 0);
  const name = at < 0 ? text : text.slice(0, at);
  const spec = at < 0 ? "" : text.slice(at + 1);
  if (!validatePackageName(name).validForOldPackages) return undefined;
  if (spec === "" || spec === "*") return { name, range: undefined };
  if (validRange(spec, true) !== null) return { name, range: spec };
  return { name, range: encodeURIComponent(spec) === spec ? spec : null };
}

/**
 * The unpacked package as the collection to read: the folders its `package.json` lists in
 * `skills` (a path or a list of paths inside it) when it has that field, else all of it.
 */
function keepDeclaredSkills(unpacked: string, dir: string): void {
  const declared = declaredSkills(unpacked);
  if (declared === undefined) {
    renameSync(unpacked, dir);
    return;
  }
  mkdirSync(dir);
  for (const path of declared) {
    const from = join(unpacked, ...path.split("/"));
    if (statSync(from, { throwIfNoEntry: false })?.isDirectory() !== true)
      throw new SkillshelfError(
        "source_subfolder_missing",
        `the package's skills field names ${path}, which is not a folder in it`,
      );
    const to = join(dir, ...path.split("/"));
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  }
}

function declaredSkills(unpacked: string): readonly string[] | undefined {
  let skills: unknown;
  try {
    skills = (
      JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8")) as { skills?: unknown }
    ).skills;
  } catch {
    return undefined;
  }
  if (skills === undefined) return undefined;
  const paths = typeof skills === "string" ? [skills] : skills;
  if (!Array.isArray(paths) || paths.some((path) => typeof path !== "string"))
    throw new SkillshelfError(
      "source_invalid",
      "the package's skills field is neither a path nor a list of paths",
    );
  return paths.map((path: string) => {
    const normalized = normalizeRelativePath(path.replace(/^\.\//, ""));
    if (normalized === undefined || normalized === ".")
      throw new SkillshelfError(
        "source_invalid",
        `the package's skills field names ${JSON.stringify(path)}, which is not a folder inside it`,
      );
    return normalized;
  });
}
