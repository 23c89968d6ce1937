import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Spec, Validation } from "@cyclonedx/cyclonedx-library";
import { digestTree, type Environment } from "@skillshelf/core";
import { observeCopyFacts } from "@skillshelf/store";
import { installPackage } from "@skillshelf/store/writers";
import { packageTree, testdir } from "@skillshelf/test-utils";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { scopeSbom } from "../src/sbom.js";
import { environment, install, kitPackage } from "./_fixture.js";

// Issue 28, item 6: a CycloneDX 1.6 bill of materials of a scope, checked against the
// specification's own JSON schema by the CycloneDX library's strict validator.

interface Component {
  readonly name: string;
  readonly version?: string;
  readonly purl: string;
  readonly hashes: { alg: string; content: string }[];
  readonly licenses?: { license: { name: string } }[];
  readonly properties: { name: string; value: string }[];
}

/** Install the package folder `dir` as `reviewer` in the project, from GitHub at `commit`; its digest. */
function installReviewer(
  env: Environment,
  dir: string,
  commit: string,
  extra: Pick<Parameters<typeof installPackage>[0], "audit" | "signer"> = {},
): string {
  const { digest } = digestTree(dir);
  installPackage({
    environment: env,
    scope: "project",
    staged: { dir, digest },
    origin: {
      source: { type: "git", url: "https://github.com/acme/skills.git", path: "reviewer" },
      commit,
    },
    reviewed: observeCopyFacts({ environment: env, scope: "project", id: "reviewer" }),
    ...extra,
  });
  return digest;
}

describe("sbom", () => {
  it("lists every installed package with its source, commit, digest, licence, signer and verdict, valid CycloneDX 1.6", async () => {
    const env = environment();
    install(env, "user", kitPackage());
    const commit = "a".repeat(40);
    const digest = installReviewer(
      env,
      testdir(packageTree({ id: "reviewer", skills: ["reviewer"] })),
      commit,
      {
        audit: { rules: "1", highest: "medium", found: ["broad-allowed-tools"] },
        signer: "ssh:SHA256:abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
      },
    );
    const text = scopeSbom({ environment: env, scopes: ["user", "project"] });
    const invalid = await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text);
    expect(invalid).toBeNull();
    // the validator does refuse what breaks the schema: a digest that is no SHA-256
    const broken = text.replace(`"content": "${digest}"`, '"content": "not-a-digest"');
    expect(broken).not.toBe(text);
    expect(
      await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(broken),
    ).not.toBeNull();
    const bom = JSON.parse(text) as {
      bomFormat: string;
      specVersion: string;
      components: Component[];
    };
    expect([bom.bomFormat, bom.specVersion]).toEqual(["CycloneDX", "1.6"]);
    const byName = new Map(bom.components.map((one) => [one.name, one]));
    expect([...byName.keys()].sort()).toEqual(["kit", "reviewer"]);
    const reviewer = byName.get("reviewer") as Component;
    expect(reviewer.purl).toBe(`pkg:github/acme/skills@${commit}#reviewer`);
    expect(reviewer.hashes).toEqual([{ alg: "SHA-256", content: digest }]);
    expect(reviewer.licenses).toEqual([{ license: { name: "MIT" } }]);
    const property = (name: string) => reviewer.properties.find((one) => one.name === name)?.value;
    expect(property("skillshelf:commit")).toBe(commit);
    expect(property("skillshelf:signer")).toBe(
      "ssh:SHA256:abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
    );
    expect(property("skillshelf:audit")).toBe("rules 1: highest medium");
    expect(byName.get("kit")?.purl).toMatch(/^pkg:generic\/kit@1\.0\.0\?download_url=/);
    // the same install gives the same document
    expect(scopeSbom({ environment: env, scopes: ["user", "project"] })).toBe(text);
    // one scope only
    const user = JSON.parse(scopeSbom({ environment: env, scopes: ["user"] })) as {
      components: Component[];
    };
    expect(user.components.map((one) => one.name)).toEqual(["kit"]);
  });
});

// Issue 59, item 5: SPDX 2.3 beside CycloneDX, with the org channel in force and the advisory
// feeds checked. No SPDX schema or validator can be fetched here, so the document is checked
// against SPDX 2.3's rules written below from the specification (required fields, identifier and
// date forms, the enumerations used, references that resolve) and against the CycloneDX
// document of the same install.

/** SPDX 2.3's JSON rules for what a document of ours holds: any other key is refused. */
const SPDX_23 = {
  type: "object",
  additionalProperties: false,
  required: ["spdxVersion", "dataLicense", "SPDXID", "name", "documentNamespace", "creationInfo"],
  properties: {
    spdxVersion: { const: "SPDX-2.3" },
    dataLicense: { const: "CC0-1.0" },
    SPDXID: { const: "SPDXRef-DOCUMENT" },
    name: { type: "string", minLength: 1 },
    documentNamespace: { type: "string", pattern: "^[a-z][a-z0-9+.-]*://[^#\\s]+$" },
    creationInfo: {
      type: "object",
      additionalProperties: false,
      required: ["created", "creators"],
      properties: {
        created: { type: "string", pattern: "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$" },
        creators: {
          type: "array",
          minItems: 1,
          items: { type: "string", pattern: "^(Tool|Organization|Person): \\S" },
        },
      },
    },
    packages: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["SPDXID", "name", "downloadLocation"],
        properties: {
          SPDXID: { type: "string", pattern: "^SPDXRef-[A-Za-z0-9.-]+$" },
          name: { type: "string", minLength: 1 },
          versionInfo: { type: "string" },
          downloadLocation: {
            anyOf: [
              { enum: ["NONE", "NOASSERTION"] },
              { type: "string", pattern: "^((git|hg|svn|bzr)\\+)?[a-z]+://\\S+$" },
            ],
          },
          filesAnalyzed: { type: "boolean" },
          checksums: {
            type: "array",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["algorithm", "checksumValue"],
              properties: {
                algorithm: { enum: ["SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "MD5"] },
                checksumValue: { type: "string", pattern: "^[0-9a-f]+$" },
              },
            },
          },
          licenseConcluded: { type: "string", minLength: 1 },
          licenseDeclared: { type: "string", minLength: 1 },
          licenseComments: { type: "string" },
          copyrightText: { type: "string" },
          description: { type: "string" },
          comment: { type: "string" },
          externalRefs: {
            type: "array",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["referenceCategory", "referenceType", "referenceLocator"],
              properties: {
                referenceCategory: {
                  enum: ["SECURITY", "PACKAGE-MANAGER", "PERSISTENT-ID", "OTHER"],
                },
                referenceType: { type: "string" },
                referenceLocator: { type: "string", pattern: "^\\S+$" },
              },
            },
          },
          primaryPackagePurpose: {
            enum: [
              "APPLICATION",
              "FRAMEWORK",
              "LIBRARY",
              "CONTAINER",
              "OPERATING-SYSTEM",
              "DEVICE",
              "FIRMWARE",
              "SOURCE",
              "ARCHIVE",
              "FILE",
              "INSTALL",
              "OTHER",
            ],
          },
        },
      },
    },
    relationships: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["spdxElementId", "relationshipType", "relatedSpdxElement"],
        properties: {
          spdxElementId: { type: "string" },
          relationshipType: { enum: ["DESCRIBES", "CONTAINS", "DEPENDS_ON"] },
          relatedSpdxElement: { type: "string" },
        },
      },
    },
    annotations: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["annotationDate", "annotationType", "annotator", "comment"],
        properties: {
          annotationDate: {
            type: "string",
            pattern: "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$",
          },
          annotationType: { enum: ["REVIEW", "OTHER"] },
          annotator: { type: "string", pattern: "^(Tool|Organization|Person): \\S" },
          comment: { type: "string" },
        },
      },
    },
  },
} as const;

interface SpdxDocument {
  readonly creationInfo: { created: string };
  readonly documentNamespace: string;
  readonly packages: {
    SPDXID: string;
    name: string;
    versionInfo?: string;
    downloadLocation: string;
    checksums?: { algorithm: string; checksumValue: string }[];
    licenseDeclared?: string;
    externalRefs?: { referenceLocator: string }[];
    comment?: string;
  }[];
  readonly relationships: {
    spdxElementId: string;
    relationshipType: string;
    relatedSpdxElement: string;
  }[];
  readonly annotations?: { comment: string }[];
}

/** Whether `text` follows `SPDX_23`, and every relationship names an element of the document. */
function spdxProblems(text: string): string[] {
  const validate = new Ajv({ allErrors: true, strict: true }).compile(SPDX_23);
  const document = JSON.parse(text) as SpdxDocument;
  const problems = validate(document)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  const ids = ["SPDXRef-DOCUMENT", ...document.packages.map((one) => one.SPDXID)];
  if (new Set(ids).size !== ids.length) problems.push("SPDXIDs repeat");
  for (const link of document.relationships)
    for (const id of [link.spdxElementId, link.relatedSpdxElement])
      if (!ids.includes(id)) problems.push(`${id} is not an element of the document`);
  if (!document.relationships.some((one) => one.relationshipType === "DESCRIBES"))
    problems.push("the document describes nothing");
  return problems;
}

describe("sbom --format spdx", () => {
  it("writes SPDX 2.3 that keeps SPDX's rules, says what the CycloneDX document says, and names the org and the advisories checked", () => {
    const env = environment();
    install(env, "user", kitPackage());
    // a licence that is no SPDX expression
    const tree = packageTree({ id: "reviewer", skills: ["reviewer"] });
    const dir = testdir({
      ...tree,
      "plugin.json": String(tree["plugin.json"]).replace('"MIT"', '"see LICENSE.txt"'),
    });
    const commit = "b".repeat(40);
    const digest = installReviewer(env, dir, commit);
    // the org joined and a feed that revokes the reviewer, as this machine keeps them
    const keep = (path: string, value: unknown) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify(value));
    };
    keep(join(env.configDir, "org", "org.json"), {
      source: "https://it.acme.example/org.yaml",
      pin: { digest: `sha256:${"1".repeat(64)}` },
      fetchedAt: "2026-12-01T10:00:00.000Z",
      digest: `sha256:${"1".repeat(64)}`,
      org: { version: 1, name: "acme" },
      addedSources: [],
    });
    keep(join(env.configDir, "advisories", "security.json"), {
      name: "security",
      source: "https://security.acme.example/advisories.json",
      fetchedAt: "2026-12-02T10:00:00.000Z",
      feed: {
        version: 1,
        advisories: [
          {
            id: "SKS-2026-0007",
            summary: "Sends keys away.",
            severity: "critical",
            published: "2026-12-01T00:00:00Z",
            revoked: { digests: [digest], sources: [] },
          },
        ],
      },
    });
    const scopes = ["user", "project"] as const;
    const text = scopeSbom({ environment: env, scopes, format: "spdx" });
    expect(spdxProblems(text)).toEqual([]);
    // the checks do refuse what breaks SPDX's rules
    expect(spdxProblems(text.replace('"SHA256"', '"SHA-256"'))).not.toEqual([]);
    expect(spdxProblems(text.replace('"CONTAINS"', '"HOLDS"'))).not.toEqual([]);

    const document = JSON.parse(text) as SpdxDocument;
    const bom = JSON.parse(scopeSbom({ environment: env, scopes })) as {
      metadata: { properties: { name: string; value: string }[] };
      components: Component[];
    };
    const packages = document.packages.filter((one) => one.SPDXID !== "SPDXRef-Library");
    expect(
      packages.map((one) => [
        one.name,
        one.versionInfo,
        one.checksums?.[0]?.checksumValue,
        one.externalRefs?.[0]?.referenceLocator,
      ]),
    ).toEqual(
      bom.components.map((one) => [one.name, one.version, one.hashes[0]?.content, one.purl]),
    );
    const reviewer = packages.find((one) => one.name === "reviewer");
    expect(reviewer?.downloadLocation).toBe(`git+https://github.com/acme/skills.git@${commit}`);
    expect(reviewer?.comment).toContain("skillshelf:advisory=SKS-2026-0007 (feed security)");
    expect(packages.find((one) => one.name === "kit")?.licenseDeclared).toBe("MIT");
    expect(reviewer?.licenseDeclared).toBe("NOASSERTION");
    // the org in force and the feed checked, in both formats
    const said = [
      "skillshelf:org=acme",
      `skillshelf:org:digest=sha256:${"1".repeat(64)}`,
      "skillshelf:advisories:security=https://security.acme.example/advisories.json, fetched 2026-12-02T10:00:00.000Z, 1 advisories",
    ];
    const annotations = document.annotations?.map((one) => one.comment) ?? [];
    const properties = bom.metadata.properties.map((one) => `${one.name}=${one.value}`);
    for (const line of said) {
      expect(annotations).toContain(line);
      expect(properties).toContain(line);
    }
    const reviewerComponent = bom.components.find((one) => one.name === "reviewer");
    expect(reviewerComponent?.properties).toContainEqual({
      name: "skillshelf:advisory",
      value: "SKS-2026-0007 (feed security)",
    });
    // the same install, the same document; reproducible with SOURCE_DATE_EPOCH
    expect(scopeSbom({ environment: env, scopes, format: "spdx" })).toBe(text);
    const dated = scopeSbom({
      environment: { ...env, env: { SOURCE_DATE_EPOCH: "1767225600" } },
      scopes,
      format: "spdx",
    });
    expect((JSON.parse(dated) as SpdxDocument).creationInfo.created).toBe("2026-01-01T00:00:00Z");
  });
});
