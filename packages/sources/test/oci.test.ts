import { readdirSync } from "node:fs";
import {
  askNewest,
  blobDigest,
  MEDIA,
  type OciCredentials,
  parseSourceUrl,
  type StageOptions,
  sourcePinnedAt,
  stageSource,
} from "@skillshelf/sources";
import {
  type OciRegistry,
  pushPlainImage,
  skillFile,
  startOciRegistry,
  tarGz,
  testdir,
} from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillNames, sourceOf, stageFailure } from "./_staging.js";

let registry: OciRegistry;
beforeAll(async () => {
  registry = await startOciRegistry({ tls: false });
}, 60_000);
afterAll(() => registry?.close());

const credentials: OciCredentials = async (host) =>
  host === registry.host ? { username: registry.username, password: registry.password } : undefined;
const options = (extra: StageOptions = {}): StageOptions => ({ oci: credentials, ...extra });

const skillLayer = (name: string, steps = "Steps.") =>
  tarGz([
    {
      path: "SKILL.md",
      content: skillFile(name, `The ${name} skill.`, "", `# ${name}\n\n${steps}\n`),
    },
  ]);

/** Push blobs and a manifest of the given shape straight through the distribution API (Basic auth). */
async function push(
  repository: string,
  tag: string,
  shape: { artifactType?: string; configType: string; layerType: string; layers: Buffer[] },
): Promise<string> {
  const base = `http://${registry.host}/v2/${repository}/`;
  const authorization = `Basic ${Buffer.from(`${registry.username}:${registry.password}`).toString("base64")}`;
  const config = Buffer.from(
    JSON.stringify({
      architecture: "amd64",
      os: "linux",
      rootfs: { type: "layers", diff_ids: [] },
    }),
  );
  for (const blob of [config, ...shape.layers]) {
    const started = await fetch(`${base}blobs/uploads/`, {
      method: "POST",
      headers: { authorization },
    });
    const upload = new URL(started.headers.get("location") ?? "", base);
    upload.searchParams.set("digest", blobDigest(blob));
    const put = await fetch(upload, { method: "PUT", headers: { authorization }, body: blob });
    expect(put.status).toBe(201);
  }
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA.manifest,
      ...(shape.artifactType === undefined ? {} : { artifactType: shape.artifactType }),
      config: { mediaType: shape.configType, digest: blobDigest(config), size: config.length },
      layers: shape.layers.map((layer) => ({
        mediaType: shape.layerType,
        digest: blobDigest(layer),
        size: layer.length,
      })),
    }),
  );
  const put = await fetch(`${base}manifests/${tag}`, {
    method: "PUT",
    headers: { authorization, "content-type": MEDIA.manifest },
    body: manifest,
  });
  expect(put.status).toBe(201);
  return blobDigest(manifest);
}

const skillet = (layers: Buffer[]) => ({
  artifactType: MEDIA.skillet,
  configType: MEDIA.imageConfig,
  layerType: MEDIA.layer,
  layers,
});

describe("OCI registries as sources (issue 27, item 4)", () => {
  it("reads oci://host/repository[:tag][@sha256:…]//<folder>, and refuses what is not one", () => {
    const digest = `sha256:${"a".repeat(64)}`;
    expect(sourceOf(`oci://registry.example.com:5000/team/skills/pdf:1.0@${digest}//sub`)).toEqual({
      type: "oci",
      url: "oci://registry.example.com:5000/team/skills/pdf",
      ref: "1.0",
      digest,
      path: "sub",
    });
    expect(sourceOf("oci+http://127.0.0.1:5000/pdf")).toEqual({
      type: "oci",
      url: "oci+http://127.0.0.1:5000/pdf",
    });
    const code = (text: string) => {
      const parsed = parseSourceUrl(text, "/");
      return parsed.ok ? parsed.source.type : parsed.code;
    };
    expect(code("oci+http://registry.example.com/pdf")).toBe("source_insecure");
    expect(code("oci://registry.example.com/Team/PDF")).toBe("source_invalid");
    expect(code("oci://registry.example.com/pdf@sha256:abc")).toBe("source_invalid");
    expect(code("oci://user:pass@registry.example.com/pdf")).toBe("source_invalid");
  });

  it("installs each shape in use: ToolHive skillet, ACR agent skill, the CNCF proposal", async () => {
    const shapes = {
      skillet: skillet([skillLayer("one")]),
      acr: {
        artifactType: "application/vnd.agent.skill.v1+json",
        configType: "application/vnd.oci.empty.v1+json",
        layerType: "application/vnd.agent.skill.content.v1.tar+gzip",
        layers: [skillLayer("two")],
      },
      cncf: {
        configType: "application/vnd.cncf.skill.config.v1+json",
        layerType: "application/vnd.cncf.skill.bundle.v1.tar+gzip",
        layers: [skillLayer("three")],
      },
    };
    for (const [name, shape] of Object.entries(shapes)) {
      const digest = await push(`shapes/${name}`, "1.0", shape);
      const staged = await stageSource(sourceOf(`${registry.base}/shapes/${name}:1.0`), options());
      try {
        expect(readdirSync(staged.dir)).toEqual(["SKILL.md"]);
        expect(`sha256:${staged.commit}`).toBe(digest);
      } finally {
        staged.release();
      }
    }
  });

  it("installs a plain image an independent client (skopeo) copied in, as a collection", async () => {
    // an OCI image layout on disk: one layer holding two skill folders
    const layer = tarGz([
      { path: "skills/pdf/SKILL.md", content: skillFile("pdf", "Read PDF files.") },
      { path: "skills/deploy/SKILL.md", content: skillFile("deploy", "Deploy the site.") },
    ]);
    const pushed = await pushPlainImage(registry, layer, "plain/skills", "v1");
    const staged = await stageSource(sourceOf(pushed), options());
    try {
      expect(skillNames(staged.dir)).toEqual(["deploy", "pdf"]);
    } finally {
      staged.release();
    }
  });

  it("refuses an artifact of an unknown shape or of several layers, writing nothing", async () => {
    await push("odd/helm", "1", {
      artifactType: "application/vnd.cncf.helm.chart",
      configType: "application/vnd.cncf.helm.config.v1+json",
      layerType: "application/vnd.cncf.helm.chart.content.v1.tar+gzip",
      layers: [skillLayer("x")],
    });
    await push("odd/layers", "1", skillet([skillLayer("x"), skillLayer("y")]));
    const tempDir = testdir();
    for (const repository of ["odd/helm", "odd/layers"])
      expect(
        (await stageFailure(sourceOf(`${registry.base}/${repository}:1`), options({ tempDir })))
          ?.code,
      ).toBe("oci_manifest_unsupported");
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("pins the manifest digest, sees a tag move, and fetches exactly the pinned manifest again", async () => {
    const first = await push("moving/pdf", "stable", skillet([skillLayer("pdf", "One step.")]));
    const tagged = sourceOf(`${registry.base}/moving/pdf:stable`);
    expect((await askNewest(tagged, options()))?.commit).toBe(first.slice(7));
    const second = await push("moving/pdf", "stable", skillet([skillLayer("pdf", "Two steps.")]));
    expect((await askNewest(tagged, options()))?.commit).toBe(second.slice(7));
    const pinned = await stageSource(sourcePinnedAt(tagged, first.slice(7)), options());
    try {
      expect(pinned.commit).toBe(first.slice(7));
    } finally {
      pinned.release();
    }
    expect(await askNewest(sourceOf(`${registry.base}/moving/pdf:gone`), options())).toEqual({
      commit: undefined,
    });
  });

  it("names the registry that wants credentials, refuses wrong ones, and a layer past the limit", async () => {
    await push("guarded/pdf", "1", skillet([skillLayer("pdf")]));
    const guarded = sourceOf(`${registry.base}/guarded/pdf:1`);
    expect(await stageFailure(guarded, {})).toMatchObject({
      code: "auth_required",
      details: { host: registry.host },
    });
    const wrong: OciCredentials = async () => ({ username: registry.username, password: "wrong" });
    expect(await stageFailure(guarded, { oci: wrong })).toMatchObject({
      code: "auth_refused",
      details: { host: registry.host },
    });
    expect((await stageFailure(sourceOf(`${registry.base}/guarded/none:1`), options()))?.code).toBe(
      "oci_not_found",
    );
    expect((await stageFailure(guarded, options({ limits: { maxDownloadBytes: 10 } })))?.code).toBe(
      "archive_too_large",
    );
  });
});
