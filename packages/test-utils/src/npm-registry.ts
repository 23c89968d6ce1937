import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { freePort, startDaemon } from "./_daemon.js";
import { testdir } from "./testdir.js";

/** A private npm registry on loopback (Verdaccio), with one user whose token it gave. */
export interface NpmRegistry {
  /** Its URL, ending in `/`. */
  readonly url: string;
  /** The user's token: install and publish need it (nothing is readable without). */
  readonly token: string;
  /** The `.npmrc` line that gives the token to this registry, as a user writes it. */
  readonly authLine: string;
  /** `npm publish` the package folder `dir` to it, with npm itself. */
  publish(dir: string): Promise<void>;
  /** Stop it; idempotent. */
  close(): Promise<void>;
}

/**
 * Start Verdaccio on a free loopback port with a throwaway storage folder, where reading and
 * publishing need a user, and create that user. Ready when it answers its ping (asked every
 * 100 ms; a start that fails is reported with its output). Call `close()` when done.
 */
export async function startNpmRegistry(): Promise<NpmRegistry> {
  const dir = testdir();
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      "storage: ./storage",
      "auth:",
      "  htpasswd:",
      "    file: ./htpasswd",
      "    max_users: 1",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $authenticated",
      "    publish: $authenticated",
      "log: { type: stdout, format: json, level: error }",
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(
    dirname(createRequire(import.meta.url).resolve("verdaccio/package.json")),
    "bin",
    "verdaccio",
  );
  const daemon = await startDaemon(
    process.execPath,
    [bin, "--config", config, "--listen", `127.0.0.1:${port}`],
    {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir },
      ready: async () => (await fetch(`${url}-/ping`)).ok,
    },
  );
  // its folder goes too: a benchmark outside vitest has no test to clean up after
  const close = async () => {
    await daemon.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const token = await createUser(url);
    const authLine = `//127.0.0.1:${port}/:_authToken=${token}`;
    const npmrc = join(dir, "publisher.npmrc");
    writeFileSync(npmrc, `${authLine}\n`);
    return {
      url,
      token,
      authLine,
      publish: async (folder) => {
        await promisify(execFile)(
          "npm",
          ["publish", folder, "--registry", url, "--userconfig", npmrc, "--ignore-scripts"],
          { env: { PATH: process.env.PATH, HOME: dir }, cwd: dir },
        );
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// --- internal ---

async function createUser(url: string): Promise<string> {
  const response = await fetch(`${url}-/user/org.couchdb.user:team`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "team", password: "team-password-1" }),
  });
  const body = (await response.json()) as { token?: string };
  if (body.token === undefined) throw new Error(`verdaccio gave no token: ${JSON.stringify(body)}`);
  return body.token;
}
