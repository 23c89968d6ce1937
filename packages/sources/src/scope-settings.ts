import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type Environment,
  errnoCode,
  type PackageScope,
  parseJsonDocument,
  readRegularFile,
  SkillshelfError,
  scopeLibraryDir,
} from "@skillshelf/core";
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import type { StageOptions } from "./fetchers/_fetcher.js";

/** A scope's `settings.json`: `<library>/settings.json` of the user or the project library. */
export function scopeSettingsPath(environment: Environment, scope: PackageScope): string {
  return join(scopeLibraryDir(environment, scope), "settings.json");
}

/**
 * The limits a fetch into `scope` runs with, from the settings files that apply: the user's
 * `settings.json`, then for the project scope the project's, each field of the later one winning.
 * `{"version":1,"limits":{"downloadBytes":…,"unpackedBytes":…,"entries":…,"timeoutSeconds":…}}`
 * — each a whole number above 0 that replaces every kind of source's default (archives, npm,
 * OCI, sites: 50 MiB, 200 MiB, 10,000; git: 500 MiB, 1 GiB, 100,000; two minutes). A file that
 * is not that is `settings_invalid`, naming it. No file, no change.
 */
export function scopeSourceSettings(
  environment: Environment,
  scope: PackageScope,
): Pick<StageOptions, "limits" | "timeoutMs"> {
  const scopes: readonly PackageScope[] = scope === "user" ? ["user"] : ["user", "project"];
  const limits: Record<string, number> = {};
  let timeoutMs: number | undefined;
  for (const each of scopes) {
    const read = readLimits(scopeSettingsPath(environment, each));
    for (const [key, field] of LIMIT_FIELDS) if (read[key] !== undefined) limits[field] = read[key];
    if (read.timeoutSeconds !== undefined) timeoutMs = read.timeoutSeconds * 1000;
  }
  return {
    ...(Object.keys(limits).length === 0 ? {} : { limits }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

// --- internal ---

/** A settings file holds a handful of numbers; anything past this is not one. */
const MAX_SETTINGS_BYTES = 64 * 1024;

/** Each `limits` key of the file, and the `SourceLimits` field it sets. */
const LIMIT_FIELDS = [
  ["downloadBytes", "maxDownloadBytes"],
  ["unpackedBytes", "maxUnpackedBytes"],
  ["entries", "maxEntries"],
] as const;

const limit = z.optional(z.int().check(z.positive()));

/** `settings.json`: its version and its limits, nothing else. */
const SETTINGS = z.strictObject({
  version: z.literal(1),
  limits: z.optional(
    z.strictObject({
      downloadBytes: limit,
      unpackedBytes: limit,
      entries: limit,
      timeoutSeconds: limit,
    }),
  ),
});

type Limits = NonNullable<z.infer<typeof SETTINGS>["limits"]>;

function readLimits(path: string): Limits {
  if (!existsSync(path)) return {};
  const invalid = (problem: string, cause?: unknown): never => {
    throw new SkillshelfError("settings_invalid", `${path} ${problem}`, { path, cause });
  };
  let text: string;
  try {
    text = readRegularFile(path, MAX_SETTINGS_BYTES).toString("utf8");
  } catch (error) {
    return invalid(`cannot be read (${errnoCode(error) ?? String(error)})`, error);
  }
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) return invalid('is not a settings file ({"version":1,…})');
  const read = SETTINGS.safeParse(parsed.value, { error: en().localeError });
  if (read.success) return read.data.limits ?? {};
  const [issue] = read.error.issues;
  return invalid(
    `is not a settings file ({"version":1,"limits":{…}}): ${issue?.path.join(".") || "the document"}: ${issue?.message}`,
  );
}
