import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { serve, skillFile, tarGz, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type CliRun, runCliAsync } from "../test/_run.js";
import { changeSandbox, codesOf, everyFileText } from "../test/_sandbox.js";

const MiB = 1024 * 1024;
const TOKEN = "npm-t0ken-never-elsewhere";

/** A package document of `name`@1.0.0 whose tarball is at `tarball`, with the `dist` fields given. */
function packument(name: string, tarball: string, dist: Record<string, unknown> = {}): Buffer {
  const version = {
    name,
    version: "1.0.0",
    dist: { tarball, integrity: `sha512-${"A".repeat(86)}==`, ...dist },
  };
  return Buffer.from(
    JSON.stringify({ name, "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": version } }),
  );
}

/** A route streaming `total` bytes of zeros with no declared length, counting what it sent. */
function endless(total: number, sent: { bytes: number }) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "application/octet-stream" });
    const chunk = Buffer.alloc(MiB);
    const more = () => {
      while (sent.bytes < total) {
        sent.bytes += chunk.length;
        if (!response.write(chunk)) return void response.once("drain", more);
      }
      response.end();
    };
    response.on("error", () => undefined);
    more();
  };
}

/** Run the CLI, its peak RSS (KiB, as Linux counts it) written by a preload at exit. */
async function measured(
  box: ReturnType<typeof changeSandbox>,
  ...args: string[]
): Promise<CliRun & { peakKiB: number }> {
  const dir = testdir();
  const preload = join(dir, "peak.cjs");
  const out = join(dir, "peak.txt");
  writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));`,
  );
  const run = await runCliAsync(args, {
    cwd: box.cwd,
    env: { ...box.env, NODE_OPTIONS: `--require ${preload}` },
  });
  return { ...run, peakKiB: Number(readFileSync(out, "utf8")) };
}

function writeNpmrc(box: ReturnType<typeof changeSandbox>, lines: readonly string[]): void {
  writeFileSync(join(box.home, ".npmrc"), `${lines.join("\n")}\n`);
}

function writeSettings(dir: string, limits: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ version: 1, limits }));
}

describe("issue 51 item 3: limits are enforced while the bytes arrive", () => {
  it("refuses an npm tarball ten times the limit as it streams: small peak RSS, nothing in the npm cache", async () => {
    const box = changeSandbox();
    const sent = { bytes: 0 };
    const base = await serve({
      "/big": (request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(packument("big", `http://${request.headers.host}/big/-/big-1.0.0.tgz`));
      },
      "/big/-/big-1.0.0.tgz": endless(500 * MiB, sent),
    });
    writeNpmrc(box, [`registry=${base}/`]);
    const run = await measured(box, "install", "npm:big", "--user", "--yes", "--json");
    expect(codesOf(run)).toContain("archive_too_large");
    // the 50 MiB default; read whole, 500 MiB would have passed through memory
    expect(sent.bytes).toBeLessThan(150 * MiB);
    expect(run.peakKiB * 1024).toBeLessThan(260 * MiB);
    expect(existsSync(join(box.home, ".npm"))).toBe(false);
  });

  it("refuses before asking for the tarball when the registry declares it too large", async () => {
    const box = changeSandbox();
    const asked: string[] = [];
    const base = await serve({
      "/big": (request, response) => {
        response.end(
          packument("big", `http://${request.headers.host}/big/-/big-1.0.0.tgz`, {
            unpackedSize: 900 * MiB,
          }),
        );
      },
      "/big/-/big-1.0.0.tgz": (_request, response) => {
        asked.push("tarball");
        response.end();
      },
    });
    writeNpmrc(box, [`registry=${base}/`]);
    const run = await box.run("install", "npm:big", "--user", "--yes", "--json");
    expect(codesOf(run)).toContain("archive_too_large");
    expect(asked).toEqual([]);
  });

  it("refuses an archive by its declared length, names the setting, and installs once the scope raises it", async () => {
    const box = changeSandbox();
    const big = tarGz([
      { path: "kit/SKILL.md", content: skillFile("kit", "The kit skill.") },
      // base64 of random bytes: it stays about as large gzipped
      { path: "kit/data.txt", content: randomBytes(192 * 1024).toString("base64") },
    ]);
    const base = await serve({ "/kit.tar.gz": big });
    writeSettings(box.configDir, { downloadBytes: 64 * 1024 });
    const refused = await box.run("install", `${base}/kit.tar.gz`, "--user", "--yes", "--json");
    expect(codesOf(refused)).toContain("archive_too_large");
    expect(refused.stdout).toContain("limits.downloadBytes");
    writeSettings(box.configDir, { downloadBytes: 16 * MiB });
    const installed = await box.run("install", `${base}/kit.tar.gz`, "--user", "--yes", "--json");
    expect(installed.status, installed.stdout).toBe(0);
    expect(Object.keys(box.userLock())).toEqual(["kit"]);
  });

  it("refuses a settings.json that is not one, naming it", async () => {
    const box = changeSandbox();
    writeSettings(box.configDir, { downloadBytes: -1 });
    const run = await box.run(
      "install",
      "https://files.example/kit.tar.gz",
      "--user",
      "--yes",
      "--json",
    );
    expect(codesOf(run)).toContain("settings_invalid");
    expect(run.stdout).toContain(join(box.configDir, "settings.json"));
  });
});

describe("issue 51 item 4: npm follows the one rule, and times out as a timeout", () => {
  it("never sends the npm token to another port of the same host a redirect leads to", async () => {
    const box = changeSandbox();
    const tarball = tarGz([
      { path: "package/package.json", content: JSON.stringify({ name: "kit", version: "1.0.0" }) },
      { path: "package/skills/kit/SKILL.md", content: skillFile("kit", "The kit skill.") },
    ]);
    const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
    const received: string[] = [];
    const elsewhere = await serve({
      "/kit-1.0.0.tgz": (request, response) => {
        received.push(request.headers.authorization ?? "");
        response.end(tarball);
      },
    });
    const registryReceived: string[] = [];
    const registry = await serve({
      "/kit": (request, response) => {
        registryReceived.push(request.headers.authorization ?? "");
        response.end(
          packument("kit", `http://${request.headers.host}/kit/-/kit-1.0.0.tgz`, { integrity }),
        );
      },
      "/kit/-/kit-1.0.0.tgz": (request, response) => {
        registryReceived.push(request.headers.authorization ?? "");
        response.writeHead(302, { location: `${elsewhere}/kit-1.0.0.tgz` }).end();
      },
    });
    const host = new URL(registry).host;
    writeNpmrc(box, [`registry=${registry}/`, `//${host}/:_authToken=${TOKEN}`]);
    const runs = [await box.run("install", "npm:kit", "--skill", "*", "--user", "--yes", "--json")];
    expect(runs[0]?.status, runs[0]?.stdout).toBe(0);
    expect(registryReceived).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(received).toEqual([""]);
    for (const text of [
      ...runs.map((run) => run.stdout + run.stderr),
      ...everyFileText(box.configDir),
    ])
      expect(text).not.toContain(TOKEN);
  });

  it("ends a registry that never answers with download_timeout, naming the setting", async () => {
    const box = changeSandbox();
    const base = await serve({ "/kit": () => undefined });
    writeNpmrc(box, [`registry=${base}/`]);
    writeSettings(box.configDir, { timeoutSeconds: 1 });
    const run = await box.run("install", "npm:kit", "--user", "--yes", "--json");
    expect(codesOf(run)).toContain("download_timeout");
    expect(run.stdout).toContain("limits.timeoutSeconds");
  });
});
