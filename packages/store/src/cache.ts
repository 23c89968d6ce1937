/**
 * Parsed `state.json` and `lock.json` files, each reused while the file's text is exactly what was
 * parsed. Reading a file's bytes stays cheap as a scope grows; checking every record again does
 * not, so a caller making many changes in one process (a host, a long apply) passes one cache to
 * every read and writer. Only good parses are kept; nothing is kept between processes.
 */
export interface ScopeCache {
  /** The value parsed from `text` at `path`, if this cache parsed exactly that text there. */
  reuse(path: string, text: string): unknown;
  /** Keep a good parse of `text` at `path`. */
  keep(path: string, text: string, value: unknown): void;
}

/** A fresh, empty `ScopeCache` the caller owns. */
export function createScopeCache(): ScopeCache {
  const parsed = new Map<string, { readonly text: string; readonly value: unknown }>();
  return {
    reuse: (path, text) => {
      const entry = parsed.get(path);
      return entry !== undefined && entry.text === text ? entry.value : undefined;
    },
    keep: (path, text, value) => {
      parsed.set(path, { text, value });
    },
  };
}
