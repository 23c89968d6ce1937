import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Environment } from "@skillshelf/core";
import { testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import {
  keptOrgPath,
  type OrgFile,
  orgAge,
  parseOrgFile,
  readPolicy,
  teamSet,
} from "../src/index.js";

const ORG = `version: 1
name: acme
ttl: 12h
mirrors:
  - from: https://github.com/
    to: https://mirror.acme.internal/github/
policy:
  audit:
    max-severity: medium
teams:
  platform: ["https://git.acme.internal/platform/skills.git#v3"]
  support:
    stable: ["npm:@acme/support@2.1.0"]
    beta: ["npm:@acme/support@3.0.0-beta.1"]
`;

function parsed(text: string): OrgFile {
  const read = parseOrgFile(text, "org.yaml");
  if (!read.ok) throw new Error(JSON.stringify(read.diagnostics));
  return read.org;
}

/** An environment with no managed policy whose user library keeps `org`, fetched `hoursAgo`. */
function keeping(org: OrgFile, hoursAgo: number): Environment {
  const { home, cwd, configDir } = testEnvironment();
  const environment: Environment = {
    cwd,
    project: cwd,
    home,
    configDir,
    env: { SKILLSHELF_SYSTEM_POLICY: `${home}/none.yaml` },
  } as Environment;
  const path = keptOrgPath(environment);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    JSON.stringify({
      source: "https://org.acme.example/org.yaml",
      pin: { digest: `sha256:${"0".repeat(64)}` },
      fetchedAt: new Date(Date.now() - hoursAgo * 3_600_000).toISOString(),
      digest: `sha256:${"0".repeat(64)}`,
      org,
      addedSources: [],
    }),
  );
  return environment;
}

describe("the org file as data", () => {
  it("reads the documented shape and names each problem by its key", () => {
    expect(parsed(ORG).name).toBe("acme");
    const codes = (text: string) => {
      const read = parseOrgFile(text, "org.yaml");
      return read.ok ? [] : read.diagnostics.map((one) => [one.code, one.details?.key]);
    };
    expect(codes(`${ORG}colour: blue\n`)).toEqual([["key_unknown", "colour"]]);
    expect(codes(ORG.replace("ttl: 12h", "ttl: soon"))).toEqual([["field_invalid", "ttl"]]);
    expect(codes(ORG.replace("name: acme\n", ""))).toEqual([["key_missing", "name"]]);
    // mirrors are the org's own key, not its policy's
    expect(codes("version: 1\nname: acme\npolicy:\n  mirrors: []\n")).toEqual([
      ["key_unknown", "policy.mirrors"],
    ]);
    expect(codes("- a list\n")[0]?.[0]).toBe("org_invalid");
  });

  it("gives each team's channel, stable for a plain list, and names what there is", () => {
    const org = parsed(ORG);
    expect(teamSet(org, "platform", "stable")).toEqual({
      sources: ["https://git.acme.internal/platform/skills.git#v3"],
    });
    expect(teamSet(org, "support", "beta")).toEqual({
      sources: ["npm:@acme/support@3.0.0-beta.1"],
    });
    const unknown = teamSet(org, "sales", "stable");
    expect("problem" in unknown && unknown.problem.code).toBe("org_team_unknown");
    const channel = teamSet(org, "platform", "beta");
    expect("problem" in channel && channel.problem.details).toMatchObject({ channels: ["stable"] });
    // an inherited name is no team
    expect("problem" in teamSet(org, "constructor", "stable")).toBe(true);
  });

  it("is a policy layer between the managed file and the user's; past its ttl it warns, or refuses when it fails closed", () => {
    const org = parsed(ORG);
    const fresh = readPolicy(keeping(org, 1));
    expect(fresh.files.map((file) => file.level)).toEqual(["org"]);
    expect(fresh.maxSeverity?.value).toBe("medium");
    expect(fresh.mirrors.map((rule) => rule.value.from)).toEqual(["https://github.com/"]);
    expect(fresh.invalid).toBeUndefined();

    const stale = readPolicy(keeping(org, 13));
    expect(stale.invalid).toBeUndefined();
    expect(stale.diagnostics.map((one) => one.code)).toEqual(["org_stale"]);
    expect(stale.maxSeverity?.value).toBe("medium");

    const closed = readPolicy(keeping({ ...org, "fail-closed": true }, 13));
    expect(closed.invalid?.code).toBe("org_expired");
    expect(orgAge({ fetchedAt: new Date(0).toISOString(), org } as never, 12 * 3_600_000)).toEqual({
      ageMs: 12 * 3_600_000,
      ttlMs: 12 * 3_600_000,
      expired: false,
    });
  });
});
