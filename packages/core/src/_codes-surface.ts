// Codes the catalog view and the provider registry produce.
export const SURFACE_CODES = {
  catalog_budget_too_small: {
    owner: "catalog-view",
    hint: "give the listing a larger budget; not even the compact fallback fits this one",
  },
  row_clipped: {
    owner: "catalog-view",
    hint: "shorten the field in the source; the listing shows the start of it",
  },
  row_invalid: { owner: "catalog-view", hint: "give every catalog row a name" },
  listener_failed: {
    owner: "registry",
    hint: "fix the change listener; the change itself was made",
  },
  provider_duplicate: {
    owner: "registry",
    hint: "give each provider of a layer a unique name",
  },
  provider_failed: {
    owner: "registry",
    hint: "fix or remove the provider; the other providers' skills are still listed",
  },
  provider_invalid: {
    owner: "registry",
    hint: "a provider needs a unique name, a list function and a get function",
  },
  provider_reserved: { owner: "registry", hint: "choose another provider name" },
  runtime_duplicate: {
    owner: "registry",
    hint: "unregister the first skill before registering another of that name",
  },
  skill_invalid: {
    owner: "registry",
    hint: "use a kebab-case name, a description and content",
  },
  skill_not_user_invocable: {
    owner: "registry",
    hint: "its author marked it user-invocable: false, so only the model starts it; ask for what it does in your message instead",
  },
  skill_unavailable: {
    owner: "registry",
    hint: "list the skills again (skillshelf list) and invoke one of those; an untrusted or disabled skill must be trusted or enabled first",
  },
  skill_shadowed: {
    owner: "registry",
    hint: "nothing to do unless you meant this copy: rename it, or rank its provider higher",
  },
} as const;
