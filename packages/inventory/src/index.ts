export { copyState } from "./copy-state.js";
export type { CopyInspection } from "./inspect.js";
export { inspectCopy } from "./inspect.js";
export { readInventory } from "./inventory.js";
export type { BoundedList, InventoryLimits } from "./limits.js";
export { boundedList, INVENTORY_LIMITS } from "./limits.js";
export type { Origin, OriginEvidence, OriginFormat } from "./origin.js";
export { classifyOrigin } from "./origin.js";
export type { OwnedResource } from "./owned.js";
export { readOwnedResources } from "./owned.js";
export type { ResourceKeyParts } from "./resource-key.js";
export { parseResourceKey, resourceKey } from "./resource-key.js";
export type {
  Audience,
  Availability,
  Inventory,
  InventoryCopy,
  InventoryCopyState,
  InventoryFilter,
  InventoryInput,
  InventoryPackage,
  InventoryResource,
  SourceClass,
} from "./types.js";
