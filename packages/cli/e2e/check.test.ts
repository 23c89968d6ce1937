import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageTree, serve, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox, codesOf } from "../test/_sandbox.js";

describe("skillshelf inventory", () => {
  it("shows what is offered, installed and admitted, narrowed by kind and scope", async () => {
    const box = changeSandbox();
    await box.run("install", testdir(packageTree({ id: "pdf" })), "--user", "--yes");
    await box.run("install", testdir(packageTree({ id: "tools" })), "--project", "--yes");
    const inventory = async (...args: string[]) =>
      JSON.parse((await box.run("inventory", "--json", ...args)).stdout).inventory as {
        copies: { id: string; scope: string; state: string }[];
        resources: { kind: string; name: string; availability: string }[];
      };
    const all = await inventory();
    expect(all.copies.map((copy) => [copy.id, copy.scope, copy.state])).toEqual([
      ["pdf", "user", "loadable"],
      ["tools", "project", "loadable"],
    ]);
    expect(all.resources.map((resource) => [resource.kind, resource.name])).toEqual([
      ["skill", "pdf"],
      ["skill", "tools"],
    ]);
    expect((await inventory("--scope", "project")).copies.map((copy) => copy.id)).toEqual([
      "tools",
    ]);
    expect((await inventory("--kind", "prompt")).resources).toEqual([]);
    expect((await box.run("inventory")).stdout).toContain("Installed copies: 2");
    expect((await box.run("inventory", "--scope", "elsewhere")).status).toBe(2);
  });
});

describe("skillshelf doctor", () => {
  it("names leftovers, kept backups and an unreadable state file, each with its fix", async () => {
    const box = changeSandbox();
    await box.run("install", testdir(packageTree({ id: "pdf" })), "--user", "--yes");
    const packages = join(box.configDir, "packages");
    mkdirSync(join(packages, ".pdf.install-1-0a"));
    mkdirSync(join(packages, ".pdf.backup-1-0b"));
    const project = join(box.cwd, ".skillshelf", "packages");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "state.json"), "{ not json");
    const doctor = await box.run("doctor", "--json");
    expect(doctor.status).toBe(1);
    const findings = JSON.parse(doctor.stdout).findings as {
      code: string;
      path: string;
      hint: string;
    }[];
    expect(findings.map((finding) => [finding.code, finding.path])).toEqual([
      ["backup_kept", join(packages, ".pdf.backup-1-0b")],
      ["leftover_found", join(packages, ".pdf.install-1-0a")],
      ["state_invalid", join(project, "state.json")],
    ]);
    expect(findings.every((finding) => finding.hint !== undefined)).toBe(true);
    const text = await box.run("doctor");
    expect(text.stdout).toContain("user library:");
    expect(text.stderr).toContain("state_invalid");
  });
});

describe("skillshelf new", () => {
  it.each(["skill", "prompt", "agent", "fleet"])(
    "scaffolds a %s that passes validate --strict, and never overwrites",
    async (kind) => {
      const box = changeSandbox();
      const made = await box.run("new", `my-${kind}`, "--kind", kind, "--user");
      expect(made.status, made.stderr).toBe(0);
      const where = { skill: "skills/my-skill/SKILL.md", prompt: "prompts/my-prompt.md" }[kind];
      const path = join(box.configDir, where ?? `${kind}s/my-${kind}.md`);
      const checked = await box.run("validate", "--strict", "--json", path);
      expect(JSON.parse(checked.stdout).results[0]).toMatchObject({ valid: true });
      const again = await box.run("new", `my-${kind}`, "--kind", kind, "--user");
      expect(again.status).toBe(1);
      expect(again.stderr).toContain("resource_exists");
    },
  );

  it("says a new skill's description is still the placeholder until its author writes one", async () => {
    const box = changeSandbox();
    expect((await box.run("new", "my-skill", "--user")).status).toBe(0);
    const path = join(box.configDir, "skills", "my-skill", "SKILL.md");
    const codes = async (...mode: string[]) => {
      const checked = await box.run("validate", ...mode, "--json", path);
      const [first] = JSON.parse(checked.stdout).results;
      return {
        valid: first.valid,
        findings: first.diagnostics.map((d: { code: string; path: string }) => [d.code, d.path]),
      };
    };
    const placeholder = { valid: true, findings: [["description_placeholder", path]] };
    expect(await codes()).toEqual(placeholder);
    expect(await codes("--strict")).toEqual(placeholder);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(/^description: .*$/m, "description: Fill PDF forms."),
    );
    expect(await codes("--strict")).toEqual({ valid: true, findings: [] });
  });

  it("refuses a name that cannot name a resource", async () => {
    expect((await changeSandbox().run("new", "Not A Name")).stderr).toContain("name_invalid");
  });
});

describe("sources that are not what they claim", () => {
  it("refuses an archive that is not one, and a repository with no skills, with code, URL or path and hint", async () => {
    const box = changeSandbox();
    const base = await serve({ "/fake.tar.gz": Buffer.from("<html>not an archive</html>") });
    const fake = await box.runAsync("install", `${base}/fake.tar.gz`, "--user", "--yes", "--json");
    expect(fake.status).toBe(1);
    expect(codesOf(fake)).toEqual(["archive_invalid"]);
    const empty = testdir({ "README.md": "no skills here" });
    const none = await box.run("install", empty, "--user", "--yes");
    expect(none.status).toBe(1);
    expect(none.stdout).toContain("collection_empty");
    expect(none.stdout).toContain("hint: name a folder or repository holding a SKILL.md");
  });

  it("exits 2 on a usage mistake", async () => {
    const box = changeSandbox();
    expect((await box.run("install", "--bogus")).status).toBe(2);
    expect((await box.run("remove")).status).toBe(2);
    expect((await box.run("install", "x", "--user", "--project")).status).toBe(2);
  });
});
