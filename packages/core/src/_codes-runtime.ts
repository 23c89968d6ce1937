// Codes of the layers above the store: package references, the inventory and the lifecycle.
export const RUNTIME_CODES = {
  package_reference_unknown: {
    owner: "store",
    hint: "declare the component in the package's manifest, or fix the reference's kind and id",
  },
  inventory_truncated: {
    owner: "inventory",
    hint: "narrow the inventory with a kind, query or ref filter to see the rows past the cap",
  },
} as const;
