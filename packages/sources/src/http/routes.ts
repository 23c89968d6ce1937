import {
  type Diagnostic,
  type Environment,
  errorDiagnostic,
  isSkillshelfError,
} from "@skillshelf/core";
import { npmConfig } from "../npm-config.js";
import { proxyName, readProxySettings } from "./proxy.js";

/** How one kind of source reaches the network, as `doctor` shows it. */
export interface ProxyRoute {
  /** The kinds of source it applies to. */
  readonly sources: readonly string[];
  /** The proxy of https and of http URLs, named without credentials; absent: directly. */
  readonly https?: string | undefined;
  readonly http?: string | undefined;
  /** What is reached directly besides this machine (`NO_PROXY`, npm's `noproxy`). */
  readonly noProxy?: string | undefined;
  /** Where these settings come from. */
  readonly from: string;
}

/**
 * The proxy each kind of source goes through: the one HTTP client's (archives, sites, OCI
 * registries, remote indexes, MCP servers) from the environment's variables; npm's from `.npmrc`
 * when it names one, else the same; git's from its own `http.proxy`, else the variables (git reads
 * them itself). A setting that cannot be read is a diagnostic, never a failure of the report.
 */
export function proxyRoutes(environment: Environment): {
  readonly routes: readonly ProxyRoute[];
  readonly diagnostics: readonly Diagnostic[];
} {
  const diagnostics: Diagnostic[] = [];
  const readable = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      diagnostics.push(errorDiagnostic(error));
      return undefined;
    }
  };
  const { env } = environment;
  const variables = readable(() => readProxySettings(env));
  const noProxy = (env.no_proxy ?? env.NO_PROXY ?? "").trim() || undefined;
  const client: ProxyRoute = {
    sources: ["archive", "site", "oci", "index", "mcp"],
    https: variables?.https === undefined ? undefined : proxyName(variables.https),
    http: variables?.http === undefined ? undefined : proxyName(variables.http),
    noProxy,
    from: "the environment (https_proxy, http_proxy, no_proxy)",
  };
  const npm = readable(() => npmConfig(environment)()) ?? {};
  const npmHttps = npm["https-proxy"] ?? npm.proxy;
  const npmRoute: ProxyRoute =
    npmHttps === undefined && npm.noproxy === undefined
      ? { ...client, sources: ["npm"] }
      : {
          sources: ["npm"],
          https: named(npmHttps),
          http: named(npm.proxy),
          noProxy: npm.noproxy,
          from: ".npmrc (https-proxy, proxy, noproxy)",
        };
  const gitProxy = gitConfigProxy(env);
  const gitRoute: ProxyRoute =
    gitProxy === undefined
      ? { ...client, sources: ["git"], from: "the environment, read by git itself" }
      : {
          sources: ["git"],
          https: named(gitProxy),
          http: named(gitProxy),
          from: "git config http.proxy",
        };
  return { routes: [client, npmRoute, gitRoute], diagnostics };
}

// --- internal ---

/** A proxy setting as a name without credentials (a setting that is no URL is shown as written, with no user part). */
function named(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const withScheme = text.includes("://") ? text : `http://${text}`;
  return URL.canParse(withScheme) ? proxyName(new URL(withScheme)) : text.replace(/^.*@/, "");
}

/** git's own `http.proxy`, as git reads it with this environment; `undefined` when unset or git is missing. */
function gitConfigProxy(env: Readonly<Record<string, string | undefined>>): string | undefined {
  // node:child_process is loaded only when git is asked: most commands never do
  const asked = process
    .getBuiltinModule("node:child_process")
    .spawnSync("git", ["config", "--get", "http.proxy"], {
      encoding: "utf8",
      env: env as NodeJS.ProcessEnv,
    });
  const value = asked.status === 0 ? asked.stdout.trim() : "";
  return value === "" ? undefined : value;
}
