// Codes the runtime read contract (`resources`) produces.
export const RUNTIME_CODES = {
  package_reference_unknown: {
    owner: "resources",
    hint: "declare the component in the package's manifest, or fix the reference's kind and id",
  },
} as const;
