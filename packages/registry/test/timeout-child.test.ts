import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runNodeChild } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "index.js");

describe("a provider that never settles", () => {
  it("still times out in a process that has nothing else pending", async () => {
    if (!existsSync(DIST)) throw new Error(`${DIST} is missing; run pnpm build first`);
    const run = await runNodeChild({
      imports: { registry: DIST },
      body: `
const skills = registry.createSkillRegistry({ providerTimeoutMs: 200 });
skills.registerProvider(() => ({ name: "stuck", list: () => new Promise(() => {}), get: () => undefined }));
const snapshot = await skills.snapshot();
console.log(JSON.stringify({ complete: snapshot.complete, codes: snapshot.diagnostics.map((d) => d.code) }));
`,
      timeoutMs: 20_000,
    });
    expect(run.killed).toBe(false);
    expect(run.code).toBe(0);
    // before the fix the timer was unref'd: the process exited mid-call and printed nothing
    expect(JSON.parse(run.stdout)).toEqual({ complete: false, codes: ["provider_failed"] });
  });
});
