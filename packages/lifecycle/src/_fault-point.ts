/**
 * The key of store's writer fault hook (a registered symbol, see store's `_faults.ts`): tests put
 * a hook under it in `applyLifecycle`'s options (`dist/testing.js`), and apply passes it on to
 * every writer it runs.
 */
export const FAULT_POINT: unique symbol = Symbol.for("skillshelf.store.faultPoint");
