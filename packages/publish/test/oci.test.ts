import { execFileSync } from "node:child_process";
import { publish } from "@skillshelf/publish";
import { MEDIA, stageSource } from "@skillshelf/sources";
import {
  type OciRegistry,
  skillFile,
  startOciRegistry,
  testdir,
  writeDockerAuth,
} from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let registry: OciRegistry;
beforeAll(async () => {
  registry = await startOciRegistry({ tls: false });
}, 60_000);
afterAll(() => registry?.close());

/** A home whose docker config holds the registry's user, as `docker login` writes it. */
function dockerHome(): string {
  const home = testdir();
  writeDockerAuth(home, registry);
  return home;
}

describe("publish to an OCI registry (issue 27, items 4 and 5)", () => {
  it("pushes each skill as a skillet artifact skopeo reads, that installs back to the same tree", async () => {
    const from = testdir({
      "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files.", "metadata:\n  version: 1.2.0\n"),
      "skills/deploy/SKILL.md": skillFile("deploy", "Deploy the site."),
      "skills/deploy/scripts/run.sh": { content: "echo run\n", mode: 0o755 },
    });
    const home = dockerHome();
    const environment = { cwd: home, home, env: {} };
    const dry = await publish({
      folder: from,
      destination: `${registry.base}/team:1.0`,
      dryRun: true,
      environment,
    });
    const result = await publish({
      folder: from,
      destination: `${registry.base}/team:1.0`,
      environment,
    });
    expect(result.published).toBe(true);
    // a dry run names exactly what is pushed, digests included
    expect(dry.artifacts).toEqual(result.artifacts);
    for (const artifact of result.artifacts) {
      const reference = artifact.location.replace(/^oci\+http:\/\//, "").replace(/@sha256:.*$/, "");
      const inspected = JSON.parse(
        execFileSync(
          "skopeo",
          [
            "inspect",
            "--raw",
            "--tls-verify=false",
            "--creds",
            `${registry.username}:${registry.password}`,
            `docker://${reference}`,
          ],
          { encoding: "utf8" },
        ),
      ) as { mediaType: string; artifactType: string; annotations: Record<string, string> };
      expect(inspected.mediaType).toBe(MEDIA.manifest);
      expect(inspected.artifactType).toBe(MEDIA.skillet);
      expect(inspected.annotations["org.stacklok.skillet.skill.name"]).toBe(artifact.skill);
    }
    for (const skill of result.skills) {
      const staged = await stageSource(
        { type: "oci", url: `${registry.base}/team/${skill.name}`, ref: "1.0" },
        { oci: async () => ({ username: registry.username, password: registry.password }) },
      );
      try {
        expect(`sha256:${staged.digest}`).toBe(skill.digest);
      } finally {
        staged.release();
      }
    }
  });

  it("says which registry wants credentials when none are configured, pushing nothing", async () => {
    const home = testdir();
    const from = testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDF files.") });
    await expect(
      publish({
        folder: from,
        destination: `${registry.base}/anonymous`,
        environment: { cwd: home, home, env: {} },
      }),
    ).rejects.toMatchObject({ code: "auth_required", details: { host: registry.host } });
  });
});
