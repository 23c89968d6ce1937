// The parts of npm's libraries this package calls, which publish no types of their own (both
// are CommonJS modules whose export is one function).

declare module "npm-pick-manifest" {
  /** The version of a package document that `wanted` (a range, version or dist-tag) picks; throws `ETARGET` when none. */
  function pickManifest(packument: unknown, wanted: string): unknown;
  export = pickManifest;
}

declare module "npm-registry-fetch/lib/auth.js" {
  /** What npm sends to `uri`, by the user's settings: a token, or base64 `user:password`. */
  function getAuth(
    uri: string,
    settings: Readonly<Record<string, unknown>>,
  ): { readonly token: string | null; readonly auth: string | null };
  export = getAuth;
}
