/** The caps of an inventory: rows per section, findings per row, characters per text. */
export const INVENTORY_LIMITS = {
  packages: 512,
  copies: 256,
  resources: 1024,
  diagnostics: 64,
  copyDiagnostics: 16,
  resourceDiagnostics: 8,
  description: 512,
  message: 512,
} as const;

/** The caps an inventory is read with. */
export type InventoryLimits = { readonly [K in keyof typeof INVENTORY_LIMITS]: number };

/**
 * An append-only list that refuses rows past its cap. `push` says whether the row was kept; the
 * first refusal sets `truncated`. Filtering happens before `push`, so the cap counts only rows
 * that would be shown.
 */
export interface BoundedList<T> {
  push(row: T): boolean;
  readonly items: readonly T[];
  readonly truncated: boolean;
}

/** A new bounded list of at most `cap` rows. */
export function boundedList<T>(cap: number): BoundedList<T> {
  const items: T[] = [];
  let truncated = false;
  return {
    push(row) {
      if (items.length >= cap) {
        truncated = true;
        return false;
      }
      items.push(row);
      return true;
    },
    items,
    get truncated() {
      return truncated;
    },
  };
}

/** The caps asked for, each no larger than `INVENTORY_LIMITS`. */
export function effectiveLimits(asked: Partial<InventoryLimits> | undefined): InventoryLimits {
  const limits: Record<string, number> = { ...INVENTORY_LIMITS };
  for (const [key, value] of Object.entries(asked ?? {}))
    if (typeof value === "number" && key in limits)
      limits[key] = Math.max(0, Math.min(limits[key] as number, Math.floor(value)));
  return limits as InventoryLimits;
}

/** Text cut to `limit` characters (the last one an ellipsis) when longer. */
export function clip(text: string, limit: number): string {
  const characters = [...text];
  return characters.length <= limit ? text : `${characters.slice(0, limit - 1).join("")}…`;
}
