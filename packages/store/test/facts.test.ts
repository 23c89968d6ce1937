import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createScopeCache,
  observeCopyFacts,
  packagesDir,
  readPackageSnapshot,
  snapshotCopyFacts,
} from "@skillshelf/store";
import { describe, expect, it } from "vitest";
import { install, storeEnvironment } from "./_store.js";

describe("a copy's facts as a snapshot found them", () => {
  it("are the facts observing the copy gives: sound, edited, gone, unrecorded, absent", () => {
    const environment = storeEnvironment();
    for (const id of ["sound", "edited", "gone"]) install(environment, "user", { id });
    const dir = packagesDir(environment, "user");
    appendFileSync(join(dir, "edited", "plugin.json"), "\n");
    rmSync(join(dir, "gone"), { recursive: true });
    mkdirSync(join(dir, "stray"));
    writeFileSync(join(dir, "stray", "plugin.json"), "{}");
    const cache = createScopeCache();
    const snapshot = readPackageSnapshot(environment, { cache });
    for (const id of ["sound", "edited", "gone", "stray"])
      expect(snapshotCopyFacts(snapshot, "user", id)).toEqual(
        observeCopyFacts({ environment, scope: "user", id, cache }),
      );
    const edited = snapshotCopyFacts(snapshot, "user", "edited");
    expect(edited?.tree).not.toBe(edited?.record?.contentDigest);
    expect(snapshotCopyFacts(snapshot, "user", "gone")?.tree).toBeNull();
    // a copy it read and found none of is absent, as observing finds it
    for (const [scope, id] of [
      ["user", "absent"],
      ["project", "sound"],
    ] as const) {
      expect(snapshotCopyFacts(snapshot, scope, id)).toEqual({
        tree: null,
        record: null,
        enabled: true,
      });
      expect(observeCopyFacts({ environment, scope, id, cache })).toEqual({
        tree: null,
        record: null,
        enabled: true,
      });
    }
    // one it did not read is left to observing; one it read by id is as the whole read found it
    const some = readPackageSnapshot(environment, { ids: ["sound", "absent"], cache });
    expect(snapshotCopyFacts(some, "user", "edited")).toBeUndefined();
    expect(snapshotCopyFacts(some, "user", "sound")).toEqual(
      snapshotCopyFacts(snapshot, "user", "sound"),
    );
    expect(snapshotCopyFacts(some, "user", "absent")?.tree).toBeNull();
    // a name that is no package id is left to observing, which refuses it
    expect(snapshotCopyFacts(snapshot, "user", "Not An Id")).toBeUndefined();
  });

  it("are the same for copies asked for by id, a few (each looked up) or many (one listing)", () => {
    const environment = storeEnvironment();
    for (const id of ["sound", "gone"]) install(environment, "user", { id });
    const dir = packagesDir(environment, "user");
    rmSync(join(dir, "gone"), { recursive: true });
    mkdirSync(join(dir, "stray"));
    writeFileSync(join(dir, "stray", "plugin.json"), "{}");
    const asked = ["sound", "gone", "stray", "absent"];
    const absent = Array.from({ length: 40 }, (_, index) => `absent-${index}`);
    const whole = readPackageSnapshot(environment).copies;
    const ofIds = (ids: string[]) =>
      readPackageSnapshot(environment, { ids }).copies.map((copy) => [copy.id, copy]);
    const expected = whole.filter((copy) => asked.includes(copy.id)).map((copy) => [copy.id, copy]);
    expect(expected.map(([id]) => id)).toEqual(["gone", "sound", "stray"]);
    expect(ofIds(asked)).toEqual(expected);
    expect(ofIds([...asked, ...absent])).toEqual(expected);
  });

  it("are left to observing when the scope's state cannot be read", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    writeFileSync(join(packagesDir(environment, "user"), "state.json"), "{ not json");
    const snapshot = readPackageSnapshot(environment);
    expect(snapshotCopyFacts(snapshot, "user", "pdf")).toBeUndefined();
  });
});
