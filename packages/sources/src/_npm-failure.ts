import { SkillshelfError } from "@skillshelf/core";

/**
 * What went wrong fetching the npm spec `spec`, coded, naming the package and its registry (never
 * a credential: the message is made here, not taken from the client): `auth_required` or
 * `auth_refused` for a 401/403, `npm_package_missing` for a 404, `npm_version_missing` when no
 * version matches, `digest_mismatch` for a tarball that is not the integrity pinned,
 * `download_timeout`, else `download_failed` with the status when there is one.
 */
export function npmFailure(
  error: unknown,
  spec: string,
  settings: Readonly<Record<string, unknown>>,
): SkillshelfError {
  if (error instanceof SkillshelfError) return error;
  const failure = error as {
    code?: unknown;
    statusCode?: unknown;
    expected?: unknown;
    found?: unknown;
  };
  const registry = registryOf(spec, settings);
  const url = registry.href;
  const status = typeof failure.statusCode === "number" ? failure.statusCode : undefined;
  const credentials = Object.entries(settings).some(
    ([key, value]) =>
      key.startsWith(`//${registry.host}`) &&
      /:_(authToken|auth|password)$/.test(key) &&
      value !== "",
  );
  const coded = (
    code: ConstructorParameters<typeof SkillshelfError>[0],
    message: string,
    details = {},
  ) => new SkillshelfError(code, message, { cause: error, details: { url, spec, ...details } });
  if (status === 401 || status === 403 || failure.code === "ENEEDAUTH")
    return coded(
      credentials ? "auth_refused" : "auth_required",
      `the registry ${registry.host} answered HTTP ${status ?? 401} for ${spec}: ${credentials ? "the credentials configured" : "no credentials are configured"} for it`,
      { host: registry.host, ...(status === undefined ? {} : { status }) },
    );
  if (status === 404 || failure.code === "E404")
    return coded("npm_package_missing", `the registry ${registry.host} has no package ${spec}`);
  if (failure.code === "ETARGET")
    return coded("npm_version_missing", `no version of ${spec} is published on ${registry.host}`);
  if (failure.code === "EINTEGRITY")
    return coded(
      "digest_mismatch",
      `the tarball of ${spec} is not the integrity pinned (${String(failure.expected)})`,
      { expected: String(failure.expected), observed: String(failure.found) },
    );
  if (failure.code === "ETIMEDOUT" || failure.code === "ESOCKETTIMEDOUT")
    return coded("download_timeout", `fetching ${spec} from ${registry.host} took too long`);
  return coded(
    "download_failed",
    `could not fetch ${spec} from ${registry.host}${status === undefined ? ` (${String(failure.code ?? error)})` : ` (HTTP ${status})`}`,
    status === undefined ? {} : { status },
  );
}

/** The registry a spec is fetched from: its scope's, else the configured one, else npm's. */
export function registryOf(spec: string, settings: Readonly<Record<string, unknown>>): URL {
  const scope = /^(@[^/]+)\//.exec(spec)?.[1];
  const configured =
    (scope === undefined ? undefined : settings[`${scope}:registry`]) ?? settings.registry;
  const text =
    typeof configured === "string" && URL.canParse(configured)
      ? configured
      : "https://registry.npmjs.org/";
  return new URL(text);
}
