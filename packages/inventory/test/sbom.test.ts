import { Spec, Validation } from "@cyclonedx/cyclonedx-library";
import { digestTree } from "@skillshelf/core";
import { observeCopyFacts } from "@skillshelf/store";
import { installPackage } from "@skillshelf/store/writers";
import { packageTree, testdir } from "@skillshelf/test-utils";
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

describe("sbom", () => {
  it("lists every installed package with its source, commit, digest, licence, signer and verdict, valid CycloneDX 1.6", async () => {
    const env = environment();
    install(env, "user", kitPackage());
    const dir = testdir(packageTree({ id: "reviewer", skills: ["reviewer"] }));
    const digest = digestTree(dir).digest;
    const commit = "a".repeat(40);
    installPackage({
      environment: env,
      scope: "project",
      staged: { dir, digest },
      origin: {
        source: { type: "git", url: "https://github.com/acme/skills.git", path: "reviewer" },
        commit,
      },
      reviewed: observeCopyFacts({ environment: env, scope: "project", id: "reviewer" }),
      audit: { rules: "1", highest: "medium", found: ["broad-allowed-tools"] },
      signer: "ssh:SHA256:abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
    });
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
