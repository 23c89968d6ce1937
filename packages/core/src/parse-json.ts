/** A JSON document parsed, or why it could not be. */
export type JsonDocumentResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

/**
 * Parse JSON text into null-prototype records, so that no key of the document (`constructor`,
 * `toString`, …) can ever resolve to something inherited. A `__proto__` key anywhere is refused:
 * schema readers drop such a key silently, so a record under it would vanish on the next write.
 */
export function parseJsonDocument(text: string): JsonDocumentResult {
  let prototypeKey = false;
  let value: unknown;
  try {
    value = JSON.parse(text, (key, item: unknown) => {
      if (key === "__proto__") prototypeKey = true;
      if (typeof item === "object" && item !== null && !Array.isArray(item))
        Object.setPrototypeOf(item, null);
      return item;
    });
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  if (prototypeKey)
    return { ok: false, message: 'it holds a "__proto__" key, which is never accepted' };
  return { ok: true, value };
}
