/**
 * A JSON document parsed, or why it could not be: `code` is `json_too_deep` for one nested
 * deeper than `MAX_JSON_DEPTH` (no reader walks such a value), absent for a syntax error.
 */
export type JsonDocumentResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly code?: "json_too_deep" };

/** How deep arrays and objects may nest in a JSON document any reader here accepts. */
export const MAX_JSON_DEPTH = 64;

/**
 * Parse JSON text into null-prototype records, so that no key of the document (`constructor`,
 * `toString`, …) can ever resolve to something inherited. A `__proto__` key anywhere is refused:
 * schema readers drop such a key silently, so a record under it would vanish on the next write.
 */
export function parseJsonDocument(text: string): JsonDocumentResult {
  const parsed = parseJson(text);
  return parsed.ok ? { ok: true, value: withoutPrototypes(parsed.value) } : parsed;
}

/**
 * Parse JSON text, refusing a `__proto__` key anywhere, into plain objects (which inherit from
 * `Object.prototype`). For a reader whose schema builds its own objects: it must give every
 * data-keyed record a null prototype itself (`nullPrototypeRecord`).
 */
export function parseJson(text: string): JsonDocumentResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  if (!withinDepth(value))
    return {
      ok: false,
      code: "json_too_deep",
      message: `it nests arrays and objects more than ${MAX_JSON_DEPTH} deep`,
    };
  // such a key is spelled out or escaped; text with neither cannot hold one
  if ((text.includes("__proto__") || text.includes("\\u")) && hasPrototypeKey(value))
    return { ok: false, message: 'it holds a "__proto__" key, which is never accepted' };
  return { ok: true, value };
}

/** A shallow copy of `record` with a null prototype, for lookups by keys that come from data. */
export function nullPrototypeRecord<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}

// --- internal ---

/**
 * Whether `value` nests no deeper than `MAX_JSON_DEPTH`, checked without recursion (two stacks
 * side by side, so a document of many objects allocates no pair per object).
 */
function withinDepth(value: unknown): boolean {
  const items: unknown[] = [value];
  const depths: number[] = [0];
  while (items.length > 0) {
    const item = items.pop();
    const depth = depths.pop() as number;
    if (typeof item !== "object" || item === null) continue;
    if (depth >= MAX_JSON_DEPTH) return false;
    // `for…in` lists a parsed object's keys without an array of its values
    if (Array.isArray(item)) for (const child of item) pushNested(items, depths, child, depth + 1);
    else
      for (const key in item)
        pushNested(items, depths, (item as Record<string, unknown>)[key], depth + 1);
  }
  return true;
}

function pushNested(items: unknown[], depths: number[], child: unknown, depth: number): void {
  if (typeof child !== "object" || child === null) return;
  items.push(child);
  depths.push(depth);
}

function hasPrototypeKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(hasPrototypeKey);
  return Object.entries(value).some(([key, item]) => key === "__proto__" || hasPrototypeKey(item));
}

function withoutPrototypes(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(withoutPrototypes);
  const record: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) record[key] = withoutPrototypes(item);
  return record;
}
