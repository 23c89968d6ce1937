/**
 * Serialise a JSON-like value with object keys sorted by code unit and no whitespace, so equal
 * values always give equal strings. `undefined` object fields are dropped as in `JSON.stringify`;
 * non-finite numbers, functions and symbols are refused.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not JSON`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(",")}}`;
  }
  throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
}

/**
 * The text of a JSON file a program owns: object keys sorted as `canonicalJson` sorts them,
 * two-space indent, a final newline, so equal values always give equal files. One native
 * `JSON.stringify` pass: this is what writers call on every commit.
 */
export function canonicalJsonFile(value: unknown): string {
  return `${JSON.stringify(value, withSortedKeys, 2)}\n`;
}

function withSortedKeys(_key: string, item: unknown): unknown {
  if (typeof item === "number" && !Number.isFinite(item))
    throw new TypeError(`canonicalJsonFile: ${item} is not JSON`);
  if (typeof item === "function" || typeof item === "symbol")
    throw new TypeError(`canonicalJsonFile: a ${typeof item} is not JSON`);
  if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
  const keys = Object.keys(item);
  // most objects were read from a canonical file and are in order already: no copy for them
  if (keys.every((key, index) => index === 0 || (keys[index - 1] as string) < key)) return item;
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of keys.sort()) sorted[key] = (item as Record<string, unknown>)[key];
  return sorted;
}
