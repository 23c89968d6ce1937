import { existsSync, mkdirSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import {
  canonicalJson,
  type PackageKind,
  parseJsonDocument,
  parseYamlDocument,
  readRegularFile,
  SkillshelfError,
  writeFileAtomic,
} from "@skillshelf/core";
import type { Document } from "yaml";
import { MAX_INDEX_BYTES } from "./index-file.js";

/** The pinned facts of one package, as `register` and `publish` write them into an index. */
export interface PinnedRow {
  readonly kind: PackageKind;
  readonly name: string;
  readonly description: string;
  readonly version: string;
  /** Where to install it from, pinned: a commit, a digest, or a folder relative to the index. */
  readonly sourceUrl: string;
  /** Its tree digest (64 hex). */
  readonly sha256: string;
  readonly requires: readonly string[];
}

/** What writing one row did to the index. */
export type RowChange = "added" | "updated" | "unchanged";

/**
 * Write `rows` into the package index at `path` (a `library.yaml`, or a `library.json`): the row
 * of the same `kind:name` has its pinned fields replaced — its other fields (`category`,
 * `triggers`, `provides`), the other rows and a YAML file's comments and layout are kept — and a
 * row the index lacks is added at its end. A missing file is created as `entries:` of the rows.
 * Written atomically; `file_changed` when someone changed the file meanwhile. Refuses a
 * `marketplace.json` (`index_not_writable`: its rows are plugins of another format) and a file
 * that is not an index (`index_invalid`). Returns each row's change, in input order.
 */
export async function writeIndexRows(
  path: string,
  rows: readonly PinnedRow[],
): Promise<RowChange[]> {
  const index = resolve(path);
  const before = existsSync(index)
    ? readRegularFile(index, MAX_INDEX_BYTES).toString("utf8")
    : undefined;
  const json = index.endsWith(".json");
  const invalid = (problem: string) =>
    new SkillshelfError("index_invalid", `${index} is not a package index: ${problem}`, {
      path: index,
    });
  if (
    basename(index) === "marketplace.json" ||
    (before !== undefined && looksLikeMarketplace(before))
  )
    throw new SkillshelfError(
      "index_not_writable",
      `${index} is a marketplace.json; rows are written into a library.yaml`,
      { path: index },
    );
  const edited = json
    ? editJsonIndex(before, rows, invalid)
    : await editYamlIndex(before, rows, invalid);
  if (edited.text !== before) {
    mkdirSync(dirname(index), { recursive: true });
    writeFileAtomic({ path: index, text: edited.text, expected: before });
  }
  return edited.changes;
}

// --- internal ---

/** The fields of a row in the order an index writes them, without an empty `requires`. */
function rowFields(row: PinnedRow): [string, unknown][] {
  return [
    ["kind", row.kind],
    ["name", row.name],
    ["description", row.description],
    ["sourceUrl", row.sourceUrl],
    ["version", row.version],
    ["sha256", row.sha256],
    ...(row.requires.length === 0 ? [] : [["requires", [...row.requires]] as [string, unknown]]),
  ];
}

const PINNED_KEYS = ["description", "sourceUrl", "version", "sha256", "requires"] as const;

function looksLikeMarketplace(text: string): boolean {
  const parsed = /^\s*\{/.test(text) ? parseJsonDocument(text) : undefined;
  return (
    parsed?.ok === true &&
    typeof parsed.value === "object" &&
    parsed.value !== null &&
    "plugins" in parsed.value
  );
}

type Invalid = (problem: string) => SkillshelfError;

function editJsonIndex(
  before: string | undefined,
  rows: readonly PinnedRow[],
  invalid: Invalid,
): { text: string; changes: RowChange[] } {
  const parsed =
    before === undefined
      ? { ok: true as const, value: { entries: [] } }
      : parseJsonDocument(before);
  if (!parsed.ok) throw invalid(parsed.message);
  const document = parsed.value as unknown;
  const entries = Array.isArray(document)
    ? document
    : isRecord(document) && Array.isArray(document.entries)
      ? document.entries
      : undefined;
  if (entries === undefined)
    throw invalid("it is neither a list of rows nor a mapping with entries");
  const changes = rows.map((row): RowChange => {
    const fields = Object.fromEntries(rowFields(row));
    const at = entries.findIndex(
      (entry) => isRecord(entry) && entry.kind === row.kind && entry.name === row.name,
    );
    if (at < 0) {
      entries.push(fields);
      return "added";
    }
    const entry = entries[at] as Record<string, unknown>;
    const merged = { ...withoutPinned(entry), ...pinnedOf(fields) };
    entries[at] = merged;
    return canonicalJson(entry) === canonicalJson(merged) ? "unchanged" : "updated";
  });
  return { text: `${JSON.stringify(document, null, 2)}\n`, changes };
}

async function editYamlIndex(
  before: string | undefined,
  rows: readonly PinnedRow[],
  invalid: Invalid,
): Promise<{ text: string; changes: RowChange[] }> {
  // read with every limit an index is read with before the document is edited
  const checked = parseYamlDocument(before ?? "", { maxLength: MAX_INDEX_BYTES, fastPath: false });
  if (!checked.ok) throw invalid(checked.message);
  const { parseDocument, isMap, isSeq } = await import("yaml");
  // blank, or only comments: the rows go under `entries:` after them
  const kept =
    before === undefined || before === "" || before.endsWith("\n") ? (before ?? "") : `${before}\n`;
  const text = checked.value === null ? `${kept}entries: []\n` : kept;
  const document = parseDocument(text, { version: "1.2", schema: "core" }) as Document;
  const root = document.contents;
  const list = isSeq(root) ? root : isMap(root) ? root.get("entries", true) : undefined;
  if (!isSeq(list)) throw invalid("it is neither a list of rows nor a mapping with entries");
  // an empty `entries: []` grows as a block list, one row per item
  if (list.items.length === 0) list.flow = false;
  const changes = rows.map((row): RowChange => {
    const fields = rowFields(row);
    const entry = list.items.find(
      (item) => isMap(item) && item.get("kind") === row.kind && item.get("name") === row.name,
    );
    if (!isMap(entry)) {
      list.items.push(document.createNode(Object.fromEntries(fields)));
      return "added";
    }
    const old = JSON.stringify(entry.toJSON());
    for (const key of PINNED_KEYS) if (!fields.some(([name]) => name === key)) entry.delete(key);
    for (const [key, value] of fields)
      if (JSON.stringify(entry.toJSON()[key]) !== JSON.stringify(value))
        entry.set(key, document.createNode(value));
    return JSON.stringify(entry.toJSON()) === old ? "unchanged" : "updated";
  });
  return { text: document.toString({ lineWidth: 0 }), changes };
}

function withoutPinned(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !isPinned(key)));
}

function pinnedOf(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => isPinned(key)));
}

function isPinned(key: string): boolean {
  return (PINNED_KEYS as readonly string[]).includes(key);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
