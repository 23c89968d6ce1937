import { mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SkillshelfError, sha256 } from "@skillshelf/core";
import { archiveFormatOf, DEFAULT_ARCHIVE_LIMITS, unpackArchive } from "../_archive.js";
import { download } from "../_download.js";
import { readSiteFile, siteFolderOf } from "../_site-folder.js";
import { parseSiteIndex, type SiteSkill } from "../_site-index.js";
import { MAX_INDEX_BYTES } from "../index-file.js";
import { MAX_SIGNATURE_BYTES, verifiedSigner } from "../ssh-signature.js";
import { type Fetcher, fetchSignal, httpOf, type StageOptions } from "./_fetcher.js";
import { urlPlace } from "./_place.js";
import { subfolderWithin } from "./_subfolder.js";
import {
  fragmentFields,
  insecureUrl,
  invalidSource,
  type ParsedSource,
  refInvalid,
  splitFragment,
  splitSubfolder,
  urlWithCredentials,
  withSubfolder,
} from "./_syntax.js";
import { writeMember } from "./_write-member.js";

// where a site lists its skills: the discovery RFC's folder, then the older one
const INDEX_PATHS = ["/.well-known/agent-skills/index.json", "/.well-known/skills/index.json"];
const WELL_KNOWN_PATH = /\/\.well-known\/(agent-)?skills(\/(index\.json)?)?$/;

/**
 * A site that lists its skills at `/.well-known/agent-skills/index.json` (or the older
 * `/.well-known/skills/index.json`): each chosen skill's `SKILL.md` or archive is downloaded and
 * checked against the digest the index gives before anything is written; an archive is then
 * unpacked under every rule an archive source has. A `file:` URL of a folder holding such an
 * index (what `publish site:DIR` writes) is a site too, its files read from the folder.
 */
export const WELL_KNOWN_FETCHER: Fetcher<"well-known"> = {
  syntax:
    "a site's https URL (https://host, or wk:<url> for a site below a path), or file://<folder holding .well-known>//<skill>",
  parse: (text) => {
    const explicit = text.startsWith("wk:");
    const [url = "", fragment] = splitFragment(explicit ? text.slice(3) : text);
    const [location, subfolder] = splitSubfolder(url);
    const site =
      /^(https?|file):\/\//i.test(location) && URL.canParse(location)
        ? new URL(location)
        : undefined;
    if (site === undefined)
      return explicit ? invalidSource(`${text}: wk: takes a site's https URL`) : undefined;
    if (site.protocol === "file:") {
      const folder = siteFolderOf(site);
      if (folder === undefined) return undefined;
      return withSiteFields(
        { type: "well-known", url: pathToFileURL(folder).href },
        fragment,
        subfolder,
      );
    }
    if (!explicit && !isSiteUrl(site)) return undefined;
    const refused = insecureUrl(site) ?? urlWithCredentials(site);
    if (refused !== undefined) return refused;
    return withSiteFields(
      { type: "well-known", url: location.replace(/\/+$/, "") },
      fragment,
      subfolder,
    );
  },
  fetch: async (source, into, options) => {
    const get = downloader(options, siteFolderOf(new URL(source.url)));
    const { url, skills } = await readIndex(source.url, get);
    const [name, ...inside] = source.path?.split("/") ?? [];
    const chosen = name === undefined ? skills : skills.filter((skill) => skill.name === name);
    if (chosen.length === 0 && name !== undefined)
      throw new SkillshelfError("site_skill_missing", `${url} lists no skill ${name}`, {
        details: { url, skill: name },
      });
    // one skill is written beside the folder it becomes, then moved there (narrowed to `inside`)
    const root = name === undefined ? into.dir : join(into.container, "site");
    mkdirSync(root);
    // each signed skill's signer, by its folder in what is fetched ("." for one skill)
    const signers: Record<string, string> = {};
    for (const skill of chosen) {
      const signer = await writeSkill(skill, join(root, skill.name), get, options.tempDir);
      if (signer !== undefined) signers[name === undefined ? skill.name : "."] = signer;
    }
    if (name !== undefined) {
      const folder = join(root, name, ...inside);
      if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
        throw new SkillshelfError(
          "source_subfolder_missing",
          `the skill ${name} of ${url} has no folder ${inside.join("/")}`,
          { details: { url } },
        );
      renameSync(folder, into.dir);
    }
    return Object.keys(signers).length === 0 ? {} : { signers };
  },
  describe: (source) =>
    `${isSiteUrl(new URL(source.url)) || source.url.startsWith("file:") ? "" : "wk:"}${source.url}${source.path === undefined ? "" : `//${source.path}`}`,
  origin: (source) => ({ kind: "well-known", url: source.url }),
  place: (source) => urlPlace(source.url),
  upstreamUrl: (source) => source.url,
  // the site lists what it serves now; only the lock's digest pins it
  pinned: () => false,
  within: subfolderWithin,
};

// --- internal ---

/** A site's source with the skill named by `//<skill>` or `#path=<skill>` (not both). */
function withSiteFields(
  site: { readonly type: "well-known"; readonly url: string },
  fragment: string | undefined,
  subfolder: string | undefined,
): ParsedSource {
  const fields = fragmentFields(fragment, "path", ["path"]);
  if (!fields.ok) return fields;
  if (subfolder !== undefined && fields.path !== undefined)
    return refInvalid(
      `${site.url} names its skill twice (//${subfolder} and #path=${fields.path})`,
    );
  return withSubfolder(site, subfolder ?? fields.path);
}

/** Downloads of one fetch: each carries its host's headers, and all share one byte budget. */
interface Downloader {
  (url: string, maxBytes?: number): Promise<Uint8Array>;
  readonly limits: typeof DEFAULT_ARCHIVE_LIMITS;
}

/** `folder`: the site is a folder on this machine, and every URL of it a file there. */
function downloader(options: StageOptions, folder: string | undefined): Downloader {
  const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
  const signal = fetchSignal(options);
  const http = httpOf(options);
  let budget = limits.maxDownloadBytes;
  const get = async (url: string, maxBytes = budget) => {
    const refused = folder === undefined ? insecureUrl(new URL(url)) : siteFileRefused(url);
    if (refused !== undefined)
      throw new SkillshelfError(refused.code, refused.problem, { details: { url } });
    const bytes =
      folder === undefined
        ? await download(http, url, {
            maxBytes: Math.min(maxBytes, budget),
            signal,
            credentials: options.headers,
          })
        : readSiteFile(url, folder, Math.min(maxBytes, budget));
    budget -= bytes.byteLength;
    return bytes;
  };
  return Object.assign(get, { limits });
}

/** A folder site's index names files of the folder only, never a host to download from. */
function siteFileRefused(url: string) {
  return url.startsWith("file:")
    ? undefined
    : invalidSource(
        `${url} is not a file of the site's folder; a folder site serves only its own files`,
      );
}

/** True for a site's root or its `.well-known` skills folder or index: what `install <url>` reads as a site. */
function isSiteUrl(url: URL): boolean {
  return url.search === "" && (url.pathname === "/" || WELL_KNOWN_PATH.test(url.pathname));
}

/** The first index the site serves (an index URL is read as it is) and its skills. */
async function readIndex(
  site: string,
  get: Downloader,
): Promise<{ readonly url: string; readonly skills: readonly SiteSkill[] }> {
  const path = new URL(site).pathname;
  const candidates = WELL_KNOWN_PATH.test(path)
    ? [site.endsWith("index.json") ? site : `${site}/index.json`]
    : INDEX_PATHS.map((index) => `${site}${index}`);
  for (const url of candidates) {
    try {
      return { url, skills: parseSiteIndex(await get(url, MAX_INDEX_BYTES), url) };
    } catch (error) {
      const status = error instanceof SkillshelfError ? error.details?.status : undefined;
      if (status !== 404) throw error;
    }
  }
  throw new SkillshelfError(
    "site_index_missing",
    `${site} serves no skills index (${candidates.join(", ")} answered 404)`,
    { details: { url: site } },
  );
}

/**
 * Write `skill` into the new folder `dir`, every download checked against its digest first, and
 * a signed one's signature checked over the bytes downloaded: its signer's key fingerprint, or
 * `undefined` when it is not signed. A signature that does not verify is `signature_invalid`.
 */
async function writeSkill(
  skill: SiteSkill,
  dir: string,
  get: Downloader,
  tempDir: string | undefined,
): Promise<string | undefined> {
  if (skill.type === "files") {
    if (skill.files.length > get.limits.maxEntries)
      throw new SkillshelfError(
        "archive_too_many_entries",
        `the skill ${skill.name} lists ${skill.files.length} files, over the limit of ${get.limits.maxEntries}`,
      );
    for (const file of skill.files) writeMember(join(dir, file.path), await get(file.url));
    return undefined;
  }
  const bytes = await get(skill.url);
  const observed = sha256(bytes);
  if (observed !== skill.sha256)
    throw new SkillshelfError(
      "digest_mismatch",
      `${skill.url} downloads as sha256 ${observed}, not the sha256 ${skill.sha256} its index lists`,
      { details: { url: skill.url, expected: skill.sha256, observed } },
    );
  const signer =
    skill.signature === undefined
      ? undefined
      : await verifiedSigner(
          bytes,
          await get(skill.signature, MAX_SIGNATURE_BYTES),
          { name: skill.url, details: { url: skill.signature } },
          { tempDir },
        );
  if (skill.type === "skill-md") writeMember(join(dir, "SKILL.md"), bytes);
  else await unpackArchive(bytes, dir, { ...get.limits, format: archiveFormatOf(bytes) });
  return signer;
}
