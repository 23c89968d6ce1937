import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type OciRegistry, skillFile, startOciRegistry, testdir } from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCliAsync } from "../test/_run.js";
import { changeSandbox, everyFileText } from "../test/_sandbox.js";

let registry: OciRegistry;
beforeAll(async () => {
  registry = await startOciRegistry();
}, 60_000);
afterAll(() => registry?.close());

describe("publish to and install from an OCI registry over TLS (issue 27, items 4 and 5)", () => {
  it("finds credentials through the docker config's credential helper, pins the manifest digest, and never shows the password", async () => {
    const box = changeSandbox();
    // a credential helper as docker and skopeo use them: docker-credential-<name> get
    const bin = testdir();
    const helper = join(bin, "docker-credential-team");
    writeFileSync(
      helper,
      `#!/bin/sh\ncat >/dev/null\necho '{"Username":"${registry.username}","Secret":"${registry.password}"}'\n`,
      { mode: 0o755 },
    );
    mkdirSync(join(box.home, ".docker"), { recursive: true });
    writeFileSync(
      join(box.home, ".docker/config.json"),
      JSON.stringify({ credHelpers: { [registry.host]: "team" } }),
    );
    const env = {
      ...box.env,
      PATH: `${bin}:${box.env.PATH ?? process.env.PATH}`,
      NODE_EXTRA_CA_CERTS: registry.certificate ?? "",
    };
    const runs: CliRun[] = [];
    const cli = async (...args: string[]) => {
      const run = await runCliAsync(args, { cwd: box.cwd, env });
      runs.push(run);
      return run;
    };
    const from = testdir({
      "pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
      "pdf/scripts/run.sh": { content: "echo run\n", mode: 0o755 },
    });

    const pushed = await cli("publish", join(from, "pdf"), `${registry.base}/team:1.0`);
    expect(pushed.status, pushed.stderr).toBe(0);
    const installed = await cli("install", `${registry.base}/team/pdf:1.0`, "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    const lock = box.userLock() as Record<string, { source: unknown; commit?: string }>;
    expect(lock.pdf?.source).toEqual({ type: "oci", url: `${registry.base}/team/pdf`, ref: "1.0" });
    const pinned = lock.pdf?.commit;
    expect(pinned).toMatch(/^[0-9a-f]{64}$/);
    expect((await cli("update", "--check", "--user")).status).toBe(0);

    appendFileSync(join(from, "pdf/SKILL.md"), "More steps.\n");
    expect((await cli("publish", join(from, "pdf"), `${registry.base}/team:1.0`)).status).toBe(0);
    const stale = await cli("update", "--check", "--user", "--json");
    expect(stale.status).toBe(1);

    // the lock still pins the first manifest: a restore fetches exactly that one
    rmSync(join(box.configDir, "packages"), { recursive: true });
    const restored = await cli("install", "--user", "--yes");
    expect(restored.status, restored.stderr).toBe(0);
    expect(readFileSync(join(box.configDir, "packages/pdf/SKILL.md"), "utf8")).not.toContain(
      "More steps.",
    );
    expect((box.userLock() as Record<string, { commit?: string }>).pdf?.commit).toBe(pinned);
    expect((await cli("verify")).status).toBe(0);

    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(registry.password);
    for (const text of everyFileText(box.configDir)) expect(text).not.toContain(registry.password);
  });
});
