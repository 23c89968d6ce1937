import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { serve, skillFile, tarGz } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type CliRun, runMain } from "./_run.js";
import { changeSandbox, codesOf, everyFileText } from "./_sandbox.js";

const TOKEN = "s3cr3t-t0ken-value";
const archive = tarGz([{ path: "kit/SKILL.md", content: skillFile("kit", "The kit skill.") }]);

/** An archive host answering only requests that carry the token. */
function guarded(request: IncomingMessage, response: ServerResponse): void {
  if (request.headers.authorization !== `Bearer ${TOKEN}`) {
    response.statusCode = 401;
    response.end("no");
    return;
  }
  response.end(archive);
}

/** The user library's hosts.json. */
function writeHosts(configDir: string, hosts: Record<string, unknown>): void {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, "hosts.json"), JSON.stringify({ version: 1, hosts }));
}

describe("credentials for an archive's host (hosts.json)", () => {
  it("are asked for by host, used for that request, and appear in no output or file", async () => {
    const box = changeSandbox();
    const base = await serve({ "/kit.tar.gz": guarded });
    const host = new URL(base).host;
    const install = (env: Record<string, string> = {}) =>
      runMain(["install", `${base}/kit.tar.gz`, "--user", "--yes", "--json"], {
        cwd: box.cwd,
        env: { ...box.env, ...env },
      });
    const runs: CliRun[] = [];
    const without = await install();
    runs.push(without);
    expect(codesOf(without)).toContain("auth_required");
    // hosts.json names the variable; its value comes from the environment
    const fromVariable = ["Bearer $", "{KIT_TOKEN}"].join("");
    writeHosts(box.configDir, { [host]: { headers: { Authorization: fromVariable } } });
    const unset = await install();
    runs.push(unset);
    expect(codesOf(unset)).toContain("credentials_invalid");
    const installed = await install({ KIT_TOKEN: TOKEN });
    runs.push(installed);
    expect(installed.status).toBe(0);
    expect(Object.keys(box.userLock())).toEqual(["kit"]);
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(TOKEN);
    for (const text of everyFileText(join(box.configDir, "packages")))
      expect(text).not.toContain(TOKEN);
    expect(readFileSync(join(box.configDir, "lock.json"), "utf8")).not.toContain(TOKEN);
  });

  it("may come from a headersHelper command, run without a shell for each download", async () => {
    const box = changeSandbox();
    const base = await serve({ "/kit.tar.gz": guarded });
    const helper = `process.stdout.write(JSON.stringify({ Authorization: "Bearer ${TOKEN}" }))`;
    writeHosts(box.configDir, {
      [new URL(base).host]: { headersHelper: [process.execPath, "-e", helper] },
    });
    const run = await box.run("install", `${base}/kit.tar.gz`, "--user", "--yes");
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it("never follow a redirect to another origin, not even another port of the same host", async () => {
    const box = changeSandbox();
    const received: string[] = [];
    const elsewhere = await serve({
      "/kit.tar.gz": (request, response) => {
        received.push(request.headers.authorization ?? "");
        guarded(request, response);
      },
    });
    const base = await serve({
      "/kit.tar.gz": (_request, response) => {
        response.statusCode = 302;
        response.setHeader("location", `${elsewhere}/kit.tar.gz`);
        response.end();
      },
    });
    writeHosts(box.configDir, {
      [new URL(base).host]: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    const run = await box.run("install", `${base}/kit.tar.gz`, "--user", "--yes", "--json");
    // followed without the first origin's credentials: the other one asks for its own
    expect(received).toEqual([""]);
    expect(codesOf(run)).toContain("auth_required");
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });
});
