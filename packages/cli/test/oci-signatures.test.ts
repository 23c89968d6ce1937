import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  type OciRegistry,
  skillFile,
  startOciRegistry,
  testdir,
  writeDockerAuth,
} from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintOf, makeKey, requireSignatures } from "./_keys.js";
import { type ChangeSandbox, changeSandbox, codesOf } from "./_sandbox.js";

// Issue 58, item 5: an SSH signature is pushed as an OCI 1.1 referrer of the manifest it signs
// (read through the referrers API, or the referrers tag schema on a registry without it), so
// cosign's `sha256-<hex>.sig` tag stays cosign's; what cosign put there is reported as another
// tool's signature, neither trusted nor called invalid.

const SSH_SIGNATURE = "application/vnd.skillshelf.ssh-signature.v1";
const MANIFEST = "application/vnd.oci.image.manifest.v1+json";
const INDEX = "application/vnd.oci.image.index.v1+json";
const sha256 = (bytes: Buffer | string) =>
  `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

let registry: OciRegistry;
beforeAll(async () => {
  registry = await startOciRegistry({ tls: false });
}, 60_000);
afterAll(() => registry?.close());

/** The registry's API for `repository`, signed in as its user. */
function api(host: string, repository: string) {
  const authorization = `Basic ${Buffer.from(`${registry.username}:${registry.password}`).toString("base64")}`;
  return (
    path: string,
    init: { method?: string; accept?: string; type?: string; body?: Buffer } = {},
  ) =>
    fetch(new URL(path, `http://${host}/v2/${repository}/`), {
      method: init.method ?? "GET",
      headers: {
        authorization,
        ...(init.accept === undefined ? {} : { accept: init.accept }),
        ...(init.type === undefined ? {} : { "content-type": init.type }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
}

/** Publish the skill `name` signed with `key` to `host`; the manifest's digest and what publish said. */
async function publishSigned(
  box: ChangeSandbox,
  host: string,
  key: { readonly path: string },
  name: string,
) {
  const skill = join(testdir({ [`${name}/SKILL.md`]: skillFile(name, "Read PDF files.") }), name);
  const published = await box.run(
    "publish",
    skill,
    `oci+http://${host}/team:1.0.0`,
    "--sign",
    key.path,
    "--json",
  );
  expect(published.status, published.stderr).toBe(0);
  const artifacts = JSON.parse(published.stdout).artifacts as {
    location: string;
    digest: string;
  }[];
  const digest = artifacts.find((one) => one.location.includes(":1.0.0@"))?.digest as string;
  return { digest, artifacts };
}

/** `digest` verified by ssh-keygen against the SSH signature `manifest` carries, as a publisher's key. */
async function sshVerified(
  read: ReturnType<typeof api>,
  manifest: { layers: { digest: string }[] },
  digest: string,
  key: { readonly publicKey: string },
): Promise<string> {
  const signature = Buffer.from(
    await (await read(`blobs/${manifest.layers[0]?.digest}`)).arrayBuffer(),
  );
  const signatureFile = join(testdir(), "pdf.sig");
  writeFileSync(signatureFile, signature);
  const signers = join(testdir(), "allowed_signers");
  writeFileSync(signers, `publisher ${key.publicKey}\n`);
  return execFileSync(
    "ssh-keygen",
    ["-Y", "verify", "-f", signers, "-I", "publisher", "-n", "skillshelf", "-s", signatureFile],
    { input: digest, encoding: "utf8" },
  );
}

/**
 * A front on loopback for the registry that adds the OCI 1.1 referrers API it lacks: every
 * request is passed on (upload locations pointed back at the front), a manifest pushed with a
 * `subject` is remembered and answered with `OCI-Subject`, and `referrers/<digest>` lists them.
 */
async function referrersFront(): Promise<{ readonly host: string; close(): Promise<void> }> {
  const referrers = new Map<
    string,
    { mediaType: string; digest: string; size: number; artifactType?: string }[]
  >();
  let front = "";
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = request.url ?? "/";
    const asked = /^\/v2\/(.+)\/referrers\/(sha256:[0-9a-f]{64})/.exec(url);
    if (request.method === "GET" && asked !== null) {
      const type = new URL(url, "http://front").searchParams.get("artifactType");
      const manifests = (referrers.get(asked[2] as string) ?? []).filter(
        (one) => type === null || one.artifactType === type,
      );
      response.writeHead(200, { "content-type": INDEX });
      response.end(JSON.stringify({ schemaVersion: 2, mediaType: INDEX, manifests }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === "string" && !["host", "connection", "content-length"].includes(name))
        headers[name] = value;
    const answer = await fetch(`http://${registry.host}${url}`, {
      method: request.method ?? "GET",
      headers,
      ...(body.length === 0 ? {} : { body }),
      redirect: "manual",
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (
        ![
          "connection",
          "transfer-encoding",
          "content-encoding",
          "content-length",
          "keep-alive",
        ].includes(name)
      )
        out[name] = name === "location" ? value.replace(registry.host, front) : value;
    });
    const subject =
      request.method === "PUT" && url.includes("/manifests/") && answer.ok
        ? (JSON.parse(body.toString("utf8")) as {
            subject?: { digest: string };
            artifactType?: string;
            mediaType: string;
          })
        : undefined;
    if (subject?.subject !== undefined) {
      const list = referrers.get(subject.subject.digest) ?? [];
      list.push({
        mediaType: subject.mediaType,
        digest: sha256(body),
        size: body.length,
        ...(subject.artifactType === undefined ? {} : { artifactType: subject.artifactType }),
      });
      referrers.set(subject.subject.digest, list);
      out["oci-subject"] = subject.subject.digest;
    }
    const bytes = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, { ...out, "content-length": String(bytes.length) });
    response.end(request.method === "HEAD" ? undefined : bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  front = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host: front, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("SSH signatures as OCI referrers (issue 58, item 5)", () => {
  it("on a registry without the referrers API: the tag schema's index, which ssh-keygen's signature is found through; cosign's tag left alone", async () => {
    const box = changeSandbox();
    writeDockerAuth(box.home, registry);
    const key = makeKey("publisher");
    const { digest, artifacts } = await publishSigned(box, registry.host, key, "pdf");
    const read = api(registry.host, "team/pdf");
    // nothing at cosign's tag; the index at sha256-<hex> names the signature, whose subject is the manifest
    expect(
      (await read(`manifests/${digest.replace(":", "-")}.sig`, { accept: MANIFEST })).status,
    ).toBe(404);
    const index = (await (
      await read(`manifests/${digest.replace(":", "-")}`, { accept: INDEX })
    ).json()) as {
      manifests: { digest: string; artifactType: string }[];
    };
    expect(index.manifests.map((one) => one.artifactType)).toEqual([SSH_SIGNATURE]);
    const signatureDigest = index.manifests[0]?.digest as string;
    expect(artifacts.map((one) => one.location)).toContain(
      `oci+http://${registry.host}/team/pdf@${signatureDigest}`,
    );
    const manifest = (await (
      await read(`manifests/${signatureDigest}`, { accept: MANIFEST })
    ).json()) as {
      subject: { digest: string };
      layers: { digest: string }[];
    };
    expect(manifest.subject.digest).toBe(digest);
    expect(await sshVerified(read, manifest, digest, key)).toContain("Good");

    requireSignatures(box, [key.publicKey]);
    const source = `oci+http://${registry.host}/team/pdf:1.0.0`;
    const installed = await box.run("install", source, "--user", "--yes");
    expect(installed.status, installed.stderr).toBe(0);
    expect((box.userLock().pdf as { signer?: string }).signer).toBe(`ssh:${fingerprintOf(key)}`);
    const other = changeSandbox();
    writeDockerAuth(other.home, registry);
    requireSignatures(other, [makeKey("someone-else").publicKey]);
    const refused = await other.run("install", source, "--user", "--yes", "--json");
    expect(codesOf(refused)).toContain("signature_invalid");
  });

  it("on a registry with the referrers API: pushed once by digest, found through the API, no tag written", async () => {
    const front = await referrersFront();
    try {
      const box = changeSandbox();
      writeDockerAuth(box.home, { ...registry, host: front.host });
      const key = makeKey("publisher");
      // another repository than the test before's: its tag-schema index is not there
      const { digest } = await publishSigned(box, front.host, key, "forms");
      // the front said OCI-Subject: no tag-schema index was written beside the referrer
      expect(
        (
          await api(registry.host, "team/forms")(`manifests/${digest.replace(":", "-")}`, {
            accept: INDEX,
          })
        ).status,
      ).toBe(404);
      requireSignatures(box, [key.publicKey]);
      const installed = await box.run(
        "install",
        `oci+http://${front.host}/team/forms:1.0.0`,
        "--user",
        "--yes",
      );
      expect(installed.status, installed.stderr).toBe(0);
      expect((box.userLock().forms as { signer?: string }).signer).toBe(
        `ssh:${fingerprintOf(key)}`,
      );
    } finally {
      await front.close();
    }
  });

  it("reads a cosign signature at the .sig tag as another tool's: reported, not trusted, not invalid", async () => {
    const box = changeSandbox();
    writeDockerAuth(box.home, registry);
    const digest = await publishUnsigned(box, "sheet");
    // what cosign pushes: a simple-signing payload, its signature in an annotation
    const payload = JSON.stringify({ critical: { image: { "docker-manifest-digest": digest } } });
    await tagAtCosignTag("team/sheet", digest, {
      mediaType: "application/vnd.dev.cosignproject.cosign/simplesigning.v1+json",
      bytes: Buffer.from(payload),
      annotations: { "dev.cosignproject.cosign/signature": "MEUCIQDsignature" },
    });
    const installed = await box.run(
      "install",
      `oci+http://${registry.host}/team/sheet:1.0.0`,
      "--user",
      "--yes",
      "--json",
    );
    expect(installed.status, installed.stderr).toBe(0);
    expect(codesOf(installed)).toContain("oci_signed_by_other_tool");
    expect(codesOf(installed)).not.toContain("signature_invalid");
    expect((box.userLock().sheet as { signer?: string }).signer).toBeUndefined();
  });

  it("still verifies an SSH signature an earlier version pushed at the .sig tag", async () => {
    const box = changeSandbox();
    writeDockerAuth(box.home, registry);
    const key = makeKey("publisher");
    const digest = await publishUnsigned(box, "slides");
    const signed = join(testdir(), "digest");
    writeFileSync(signed, digest);
    execFileSync("ssh-keygen", ["-q", "-Y", "sign", "-f", key.path, "-n", "skillshelf", signed]);
    await tagAtCosignTag("team/slides", digest, {
      mediaType: SSH_SIGNATURE,
      bytes: readFileSync(`${signed}.sig`),
    });
    requireSignatures(box, [key.publicKey]);
    const installed = await box.run(
      "install",
      `oci+http://${registry.host}/team/slides:1.0.0`,
      "--user",
      "--yes",
    );
    expect(installed.status, installed.stderr).toBe(0);
    expect((box.userLock().slides as { signer?: string }).signer).toBe(`ssh:${fingerprintOf(key)}`);
  });
});

/** Publish the skill `name` unsigned to the registry; its manifest's digest. */
async function publishUnsigned(box: ChangeSandbox, name: string): Promise<string> {
  const skill = join(testdir({ [`${name}/SKILL.md`]: skillFile(name, "A skill.") }), name);
  const published = await box.run(
    "publish",
    skill,
    `oci+http://${registry.host}/team:1.0.0`,
    "--json",
  );
  expect(published.status, published.stderr).toBe(0);
  return (JSON.parse(published.stdout).artifacts as { digest: string }[])[0]?.digest as string;
}

/** Push, as cosign does, a manifest of one `layer` (and an empty config) at `sha256-<hex>.sig`. */
async function tagAtCosignTag(
  repository: string,
  digest: string,
  layer: { mediaType: string; bytes: Buffer; annotations?: Record<string, string> },
): Promise<void> {
  const write = api(registry.host, repository);
  const config = Buffer.from("{}");
  for (const blob of [layer.bytes, config]) {
    const started = await write("blobs/uploads/", { method: "POST" });
    const location = new URL(started.headers.get("location") as string, `http://${registry.host}`);
    location.searchParams.set("digest", sha256(blob));
    expect(
      (await write(location.href, { method: "PUT", type: "application/octet-stream", body: blob }))
        .status,
    ).toBe(201);
  }
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MANIFEST,
      config: {
        mediaType: "application/vnd.oci.image.config.v1+json",
        digest: sha256(config),
        size: config.length,
      },
      layers: [
        {
          mediaType: layer.mediaType,
          digest: sha256(layer.bytes),
          size: layer.bytes.length,
          ...(layer.annotations === undefined ? {} : { annotations: layer.annotations }),
        },
      ],
    }),
  );
  const tagged = await write(`manifests/${digest.replace(":", "-")}.sig`, {
    method: "PUT",
    type: MANIFEST,
    body: manifest,
  });
  expect(tagged.status).toBe(201);
}
