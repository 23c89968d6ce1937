import { rmSync } from "node:fs";
import { checkUpdates } from "@skillshelf/lifecycle";
import { packageTree, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { change, environment, offer } from "./_lifecycle.js";

describe("checkUpdates (issue 25, item 4)", () => {
  it("compares an index-installed package with what the index offers now, by its pinned digest", async () => {
    const env = environment();
    offer(env, [{ id: "tools", version: "1.0.0" }]);
    await change(env, { operation: "install", targets: ["tools"] });
    const [same] = await checkUpdates({ environment: env });
    expect(same).toMatchObject({ id: "tools", status: "up-to-date", newest: { version: "1.0.0" } });
    // the index now offers other files under a new version
    offer(env, [{ id: "tools", version: "1.1.0", files: { "notes.md": "new" } }]);
    const [newer] = await checkUpdates({ environment: env });
    expect(newer).toMatchObject({
      status: "out-of-date",
      pinned: { version: "1.0.0" },
      newest: { version: "1.1.0" },
    });
    expect(newer?.newest?.digest).not.toBe(newer?.pinned.digest);
    // and nothing at all for an id no copy has
    expect(await checkUpdates({ environment: env, ids: ["absent"] })).toEqual([]);
  });

  it("is unknown, with the code, when a folder it was installed from is gone", async () => {
    const env = environment();
    const folder = testdir(packageTree({ id: "kit" }));
    await change(env, { operation: "install", targets: [folder] });
    expect((await checkUpdates({ environment: env }))[0]?.status).toBe("up-to-date");
    rmSync(folder, { recursive: true });
    const [gone] = await checkUpdates({ environment: env });
    expect(gone).toMatchObject({ id: "kit", status: "unknown", error: { code: "source_missing" } });
  });
});
