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
 * Whether two JSON-like values have the same `canonicalJson` text, found without writing either
 * out: key order and `undefined` object fields do not count, an `undefined` array item is `null`,
 * a `Date` is its ISO string. A value `canonicalJson` refuses (a function, a symbol, a number that
 * is not finite) is equal to nothing.
 */
export function sameJson(one: unknown, other: unknown): boolean {
  const a = one instanceof Date ? one.toISOString() : one === undefined ? null : one;
  const b = other instanceof Date ? other.toISOString() : other === undefined ? null : other;
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null)
    return a === b && isJsonScalar(a);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const items = b as readonly unknown[];
    return a.length === items.length && a.every((item, index) => sameJson(item, items[index]));
  }
  const left = a as Readonly<Record<string, unknown>>;
  const right = b as Readonly<Record<string, unknown>>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  let count = 0;
  for (const key of Object.keys(right)) if (right[key] !== undefined) count += 1;
  return (
    keys.length === count &&
    keys.every(
      (key) =>
        Object.hasOwn(right, key) && right[key] !== undefined && sameJson(left[key], right[key]),
    )
  );
}

/** A value `canonicalJson` writes as it is: `null`, a string, a boolean or a finite number. */
function isJsonScalar(value: unknown): boolean {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/**
 * The text of a JSON file a program owns: object keys sorted as `canonicalJson` sorts them,
 * two-space indent, a final newline, so equal values always give equal files. One native
 * `JSON.stringify` pass: this is what writers call on every commit.
 */
export function canonicalJsonFile(value: unknown): string {
  return `${JSON.stringify(value, withSortedKeys, 2)}\n`;
}

/**
 * `canonicalJsonFile(value)`, byte for byte, for a file whose objects at `depth` (the records of a
 * keyed table: `installed.<id>` is depth 2) are mostly the same objects from one write to the
 * next: each such object's text is kept in `fragments` and reused, so a write serialises only the
 * records that are new objects. The objects must not change once written.
 */
export function canonicalJsonFileReusing(
  value: unknown,
  fragments: WeakMap<object, string>,
  depth: number,
): string {
  return `${serializeLevel(value, 0, { fragments, depth })}\n`;
}

function serializeLevel(
  item: unknown,
  level: number,
  reuse: { readonly fragments: WeakMap<object, string>; readonly depth: number },
): string | undefined {
  const plainObject =
    typeof item === "object" && item !== null && !Array.isArray(item) && !(item instanceof Date);
  if (!plainObject || level > reuse.depth) return indented(item, level);
  if (level === reuse.depth) {
    let text = reuse.fragments.get(item);
    if (text === undefined) {
      text = indented(item, level) as string;
      reuse.fragments.set(item, text);
    }
    return text;
  }
  const inner = `\n${"  ".repeat(level + 1)}`;
  let text = "";
  for (const key of sortedKeys(item)) {
    const field = serializeLevel((item as Record<string, unknown>)[key], level + 1, reuse);
    if (field !== undefined)
      text += `${text === "" ? "{" : ","}${inner}${JSON.stringify(key)}: ${field}`;
  }
  return text === "" ? "{}" : `${text}\n${"  ".repeat(level)}}`;
}

/** `item` as `canonicalJsonFile` writes it `level` objects deep; `undefined` for a dropped field. */
function indented(item: unknown, level: number): string | undefined {
  const text = JSON.stringify(item, withSortedKeys, 2) as string | undefined;
  // a JSON string never holds a raw newline, so every one is a line break to indent
  return level === 0 || text === undefined
    ? text
    : text.replaceAll("\n", `\n${"  ".repeat(level)}`);
}

function withSortedKeys(_key: string, item: unknown): unknown {
  if (typeof item === "number" && !Number.isFinite(item))
    throw new TypeError(`canonicalJsonFile: ${item} is not JSON`);
  if (typeof item === "function" || typeof item === "symbol")
    throw new TypeError(`canonicalJsonFile: a ${typeof item} is not JSON`);
  if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
  const keys = Object.keys(item);
  // most objects were read from a canonical file and are in order already: no copy for them
  if (isSorted(keys)) return item;
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of keys.sort()) sorted[key] = (item as Record<string, unknown>)[key];
  return sorted;
}

function sortedKeys(item: object): string[] {
  const keys = Object.keys(item);
  return isSorted(keys) ? keys : keys.sort();
}

function isSorted(keys: readonly string[]): boolean {
  for (let index = 1; index < keys.length; index++)
    if ((keys[index - 1] as string) >= (keys[index] as string)) return false;
  return true;
}
