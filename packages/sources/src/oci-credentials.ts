import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type Environment,
  parseJsonDocument,
  readRegularFile,
  SkillshelfError,
} from "@skillshelf/core";

/** A registry user and password (or token) for a host, as OCI clients find them; `undefined` when none. */
export type OciCredentials = (
  host: string,
) => Promise<{ readonly username: string; readonly password: string } | undefined>;

/**
 * Credentials for a registry host where docker, podman and skopeo keep them: the docker config
 * (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`), then the containers auth file
 * (`$REGISTRY_AUTH_FILE`, else `$XDG_RUNTIME_DIR/containers/auth.json`). In each, a
 * `credHelpers` entry for the host, else its `auths` entry, else the `credsStore`; a helper is
 * `docker-credential-<name> get`, run without a shell with the host on its standard input.
 * Read on first use; nothing is cached on disk or shown.
 */
export function ociCredentials(environment: Environment): OciCredentials {
  let files: readonly AuthFile[] | undefined;
  return async (host) => {
    files ??= authFiles(environment);
    for (const file of files) {
      const helper = file.credHelpers?.[host];
      if (helper !== undefined) return runHelper(helper, host, environment);
      const entry = file.auths?.[host] ?? file.auths?.[`https://${host}`];
      if (entry?.auth !== undefined) return decodeAuth(entry.auth, file.path);
      if (file.credsStore !== undefined) {
        const stored = await runHelper(file.credsStore, host, environment);
        if (stored !== undefined) return stored;
      }
    }
    return undefined;
  };
}

// --- internal ---

interface AuthFile {
  readonly path: string;
  readonly auths?: Readonly<Record<string, { readonly auth?: string }>>;
  readonly credHelpers?: Readonly<Record<string, string>>;
  readonly credsStore?: string;
}

const MAX_AUTH_FILE_BYTES = 1024 * 1024;

function authFiles(environment: Environment): AuthFile[] {
  const { env, home } = environment;
  const paths = [
    join(env.DOCKER_CONFIG ?? join(home, ".docker"), "config.json"),
    env.REGISTRY_AUTH_FILE ??
      (env.XDG_RUNTIME_DIR === undefined
        ? undefined
        : join(env.XDG_RUNTIME_DIR, "containers", "auth.json")),
  ];
  return paths
    .filter((path): path is string => path !== undefined && existsSync(path))
    .map((path) => {
      const parsed = parseJsonDocument(readRegularFile(path, MAX_AUTH_FILE_BYTES).toString("utf8"));
      if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null)
        throw new SkillshelfError("credentials_invalid", `${path} is not a JSON object`, { path });
      return { path, ...(parsed.value as Omit<AuthFile, "path">) };
    });
}

function decodeAuth(auth: string, path: string): { username: string; password: string } {
  const text = Buffer.from(auth, "base64").toString("utf8");
  const at = text.indexOf(":");
  if (at === -1)
    throw new SkillshelfError(
      "credentials_invalid",
      `${path} holds an auth that is not base64 of user:password`,
      {
        path,
      },
    );
  return { username: text.slice(0, at), password: text.slice(at + 1) };
}

/** `docker-credential-<name> get` for `host`; `undefined` when it has none for it. */
async function runHelper(
  name: string,
  host: string,
  environment: Environment,
): Promise<{ username: string; password: string } | undefined> {
  // loaded when a helper runs, so other commands start without it
  const { execFile } = await import("node:child_process");
  const command = `docker-credential-${name}`;
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      ["get"],
      { env: environment.env as NodeJS.ProcessEnv, timeout: 30_000, maxBuffer: 64 * 1024 },
      (error, stdout) => {
        if (error !== null) {
          // the helper's convention for "none stored for this host"
          if (/credentials not found/i.test(String(stdout))) resolve(undefined);
          else
            reject(
              new SkillshelfError(
                "credentials_helper_failed",
                `${command} get failed for ${host}`,
                {
                  details: { helper: command, host },
                },
              ),
            );
          return;
        }
        try {
          const { Username, Secret } = JSON.parse(stdout) as {
            Username?: unknown;
            Secret?: unknown;
          };
          if (typeof Username !== "string" || typeof Secret !== "string")
            throw new Error("no Username and Secret");
          resolve({ username: Username, password: Secret });
        } catch {
          reject(
            new SkillshelfError(
              "credentials_helper_failed",
              `${command} get printed no Username and Secret for ${host}`,
              {
                details: { helper: command, host },
              },
            ),
          );
        }
      },
    );
    // a helper may exit before it reads the host: what it printed and its status say what
    // happened, and the write it cut short (EPIPE) is no error of ours
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(host);
  });
}
