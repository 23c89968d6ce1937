import { isSkillshelfError, type PackageSource } from "@skillshelf/core";
import {
  parseSourceUrl,
  readCollection,
  type StageOptions,
  stageSource,
} from "@skillshelf/sources";

/** The code and details staging `source` fails with, or `undefined` when it stages (released again). */
export async function stageFailure(
  source: PackageSource,
  options: StageOptions = {},
): Promise<{ code: string; details: unknown } | undefined> {
  try {
    (await stageSource(source, options)).release();
  } catch (error) {
    if (isSkillshelfError(error)) return { code: error.code, details: error.details };
    throw error;
  }
  return undefined;
}

/** The source `text` names; a text no fetcher takes fails the test. */
export function sourceOf(text: string): PackageSource {
  const parsed = parseSourceUrl(text, "/");
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.source;
}

/** The names of the skills a staged folder holds, read as a collection, sorted. */
export function skillNames(dir: string): string[] {
  return readCollection(dir)
    .skills.map((skill) => skill.name)
    .sort();
}
