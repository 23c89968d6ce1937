import { readFileSync } from "node:fs";
import { join } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

describe("skillshelf sbom", () => {
  it("prints a CycloneDX (or SPDX) document of what is installed, or writes it to --output", async () => {
    const box = changeSandbox();
    const skill = join(testdir({ "tidy/SKILL.md": skillFile("tidy", "Use for tidying.") }), "tidy");
    expect((await box.run("install", skill, "--user", "--yes")).status).toBe(0);
    const printed = await box.run("sbom");
    expect(printed.status, printed.stderr).toBe(0);
    const bom = JSON.parse(printed.stdout) as {
      specVersion: string;
      components: { name: string }[];
    };
    expect(bom.specVersion).toBe("1.6");
    expect(bom.components.map((one) => one.name)).toEqual(["tidy"]);
    const written = await box.run("sbom", "--user", "--output", "bom.json");
    expect(written.status, written.stderr).toBe(0);
    expect(readFileSync(join(box.cwd, "bom.json"), "utf8")).toBe(printed.stdout);
    expect((await box.run("sbom", "--project")).stdout).toContain('"components": []');
    // SPDX beside it
    const spdx = await box.run("sbom", "--format", "spdx", "--user");
    expect(spdx.status, spdx.stderr).toBe(0);
    const document = JSON.parse(spdx.stdout) as {
      spdxVersion: string;
      packages: { name: string }[];
    };
    expect(document.spdxVersion).toBe("SPDX-2.3");
    expect(document.packages.map((one) => one.name).slice(1)).toEqual(["tidy"]);
    expect((await box.run("sbom", "--format", "swid")).status).toBe(2);
  });
});
