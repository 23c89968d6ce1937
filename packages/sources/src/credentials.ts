import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type Environment,
  parseJsonDocument,
  readRegularFile,
  SkillshelfError,
} from "@skillshelf/core";
import type { StageOptions } from "./fetchers/_fetcher.js";
import { createHttpClient, type OriginCredentials } from "./http/client.js";
import { npmConfig } from "./npm-config.js";
import { ociCredentials } from "./oci-credentials.js";

/**
 * The headers a download of `url` carries: what the user configured for its host, never anything
 * else. They are given to that one request and kept nowhere (not in the lock, the state, a log or
 * a message).
 */
export type HostHeaders = OriginCredentials;

/** The user library's file of per-host credentials: `<user library>/hosts.json`. */
export function hostsFile(environment: Environment): string {
  return join(environment.configDir, "hosts.json");
}

/**
 * Headers per host from `<user library>/hosts.json`:
 * `{"version":1,"hosts":{"host[:port]":{"headers":{"Authorization":"Bearer ${TOKEN}"}}}}`, where
 * `${NAME}` is taken from the environment, or `"headersHelper":["command","arg",…]`, a command
 * (run without a shell, with this environment) that prints a JSON object of headers for each
 * download. Nothing is read until a download asks; a host not named gets no headers.
 */
export function hostHeaders(environment: Environment): HostHeaders {
  const path = hostsFile(environment);
  // read on the first download that asks, once for every download of this provider
  let hosts: Readonly<Record<string, HostEntry>> | undefined;
  return async (url) => {
    if (hosts === undefined && !existsSync(path)) return undefined;
    hosts ??= readHosts(path);
    const host = hosts[url.host];
    if (host === undefined) return undefined;
    const helped =
      host.headersHelper === undefined ? {} : await runHelper(host.headersHelper, url, environment);
    return { ...expand(host.headers ?? {}, environment, url), ...helped };
  };
}

// --- internal ---

/** hosts.json holds a few headers per host; anything past this is not one. */
const MAX_HOSTS_BYTES = 1024 * 1024;

interface HostEntry {
  readonly headers?: Readonly<Record<string, string>>;
  readonly headersHelper?: readonly string[];
}

function readHosts(path: string): Readonly<Record<string, HostEntry>> {
  const invalid = (problem: string): never => {
    throw new SkillshelfError("credentials_invalid", `${path} ${problem}`, { path });
  };
  // a regular file only: a FIFO in its place never blocks a download
  const parsed = parseJsonDocument(readRegularFile(path, MAX_HOSTS_BYTES).toString("utf8"));
  if (!parsed.ok) return invalid("is not JSON");
  const document = parsed.value;
  if (!isRecord(document) || document.version !== 1 || !isRecord(document.hosts))
    return invalid('must be {"version":1,"hosts":{…}}');
  const hosts: Record<string, HostEntry> = {};
  for (const [name, entry] of Object.entries(document.hosts)) {
    if (!isRecord(entry)) return invalid(`names ${name} without an object`);
    const headers = entry.headers === undefined ? undefined : textRecord(entry.headers);
    if (entry.headers !== undefined && headers === undefined)
      return invalid(`gives ${name} headers that are not all text`);
    const helper = entry.headersHelper;
    const given: readonly unknown[] = Array.isArray(helper) ? helper : [];
    const command = given.filter(isText);
    if (helper !== undefined && (command.length === 0 || command.length !== given.length))
      return invalid(`gives ${name} a headersHelper that is not a command and its arguments`);
    hosts[name] = {
      ...(headers === undefined ? {} : { headers }),
      ...(helper === undefined ? {} : { headersHelper: command }),
    };
  }
  return hosts;
}

/** `${NAME}` in each value, from the environment; a name it lacks is a finding, never an empty header. */
function expand(
  headers: Readonly<Record<string, string>>,
  environment: Environment,
  url: URL,
): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    expanded[name] = value.replace(/\$\{(\w+)\}/g, (_, variable: string) => {
      const found = environment.env[variable];
      if (found === undefined || found === "")
        throw new SkillshelfError(
          "credentials_invalid",
          `the ${name} header for ${url.host} names \${${variable}}, which is not set`,
          { details: { host: url.host, variable } },
        );
      return found;
    });
  return expanded;
}

/** Run a `headersHelper` for one download; its output is parsed and never shown. */
async function runHelper(
  command: readonly string[],
  url: URL,
  environment: Environment,
): Promise<Record<string, string>> {
  // loaded when a helper runs, so other commands start without it
  const { execFile } = await import("node:child_process");
  const [file = "", ...args] = command;
  const failed = (problem: string) =>
    new SkillshelfError(
      "credentials_helper_failed",
      `the headersHelper for ${url.host} (${file}) ${problem}`,
      { details: { host: url.host, command: file } },
    );
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { env: { ...environment.env, SKILLSHELF_URL: url.href }, timeout: 30_000, shell: false },
      (error, stdout) => {
        if (error !== null) return reject(failed("did not succeed"));
        const parsed = parseJsonDocument(stdout);
        const headers = parsed.ok ? textRecord(parsed.value) : undefined;
        if (headers === undefined) return reject(failed("did not print a JSON object of headers"));
        resolve(headers);
      },
    );
  });
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` as an object of text values, or `undefined` when it is not one. */
function textRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const record: Record<string, string> = {};
  for (const [name, field] of Object.entries(value)) {
    if (!isText(field)) return undefined;
    record[name] = field;
  }
  return record;
}

function isText(value: unknown): value is string {
  return typeof value === "string";
}

/**
 * How a fetch reaches what the user configured, for `StageOptions`: the one HTTP client with the
 * environment's proxies (`createHttpClient`), headers per host (`hostHeaders`), npm's settings
 * (`npmConfig`) and registry credentials (`ociCredentials`), each read only when a fetch first asks.
 */
export function sourceAccess(
  environment: Environment,
): Required<Pick<StageOptions, "headers" | "npm" | "oci" | "http">> {
  return {
    http: createHttpClient(environment.env),
    headers: hostHeaders(environment),
    npm: npmConfig(environment),
    oci: ociCredentials(environment),
  };
}
