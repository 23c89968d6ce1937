import { appendFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { digestTree } from "@skillshelf/core";
import { createScopeCache, packagesDir, readPackageSnapshot } from "@skillshelf/store";
import { rollbackPackage, rollbackPackages } from "@skillshelf/store/writers";
import { describe, expect, it } from "vitest";
import { runStoreChild } from "./_child.js";
import {
  errorOf,
  facts,
  install,
  installStaged,
  localOrigin,
  remove,
  stagePackage,
  storeEnvironment,
} from "./_store.js";

function versionAndDigest(environment: ReturnType<typeof storeEnvironment>) {
  const [copy] = readPackageSnapshot(environment).copies;
  return { version: copy?.record?.version, digest: copy?.observedDigest, state: copy?.state };
}

function update(environment: ReturnType<typeof storeEnvironment>, version: string) {
  return installStaged(environment, "user", "pdf", stagePackage({ id: "pdf", version }), {
    keepPrevious: true,
  });
}

function rollback(environment: ReturnType<typeof storeEnvironment>) {
  return rollbackPackage({
    environment,
    scope: "user",
    id: "pdf",
    reviewed: facts(environment, "user", "pdf"),
  });
}

describe("the previous version of a copy", () => {
  it("is kept by an update and restored, exactly, by rollback; nothing is earlier than it", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    const first = versionAndDigest(environment);
    update(environment, "2.0.0");
    const kept = join(packagesDir(environment, "user"), ".previous", "pdf");
    expect(digestTree(kept).digest).toBe(first.digest);
    rollback(environment);
    expect(versionAndDigest(environment)).toEqual(first);
    // one version is kept: a second rollback has nothing to go back to (issue 23, item 7)
    expect(errorOf(() => rollback(environment))?.code).toBe("no_previous_version");
    expect(existsSync(kept)).toBe(false);
    expect(versionAndDigest(environment)).toEqual(first);
  });

  it("is judged by the old tree's stamps, which staging the new tree does not overwrite", () => {
    const environment = storeEnvironment();
    const cache = createScopeCache();
    const stage = (version: string) => ({
      ...stagePackage({ id: "pdf", version }),
      disposable: true,
    });
    installStaged(environment, "user", "pdf", stage("1.0.0"), { cache });
    const folder = join(packagesDir(environment, "user"), "pdf");
    const old = cache.trees.get(folder)?.digest;
    expect(old).toBe(digestTree(folder).digest);
    const next = stage("2.0.0");
    const result = installStaged(environment, "user", "pdf", next, { cache, keepPrevious: true });
    expect(result.record?.previous?.contentDigest).toBe(old);
    // what the cache holds for the copy's folder is the tree now there, not the replaced one
    expect(cache.trees.get(folder)?.digest).toBe(next.digest);
    expect(digestTree(folder).digest).toBe(next.digest);
  });

  it("is refused when nothing was kept", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    expect(errorOf(() => rollback(environment))?.code).toBe("no_previous_version");
    // a replacement that does not ask to keep the old tree drops it
    update(environment, "2.0.0");
    installStaged(environment, "user", "pdf", stagePackage({ id: "pdf", version: "3.0.0" }));
    expect(errorOf(() => rollback(environment))?.code).toBe("no_previous_version");
    expect(existsSync(join(packagesDir(environment, "user"), ".previous", "pdf"))).toBe(false);
  });

  it("is not a tree with local changes: that one is kept as a backup instead", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    appendFileSync(join(packagesDir(environment, "user"), "pdf", "plugin.json"), " ");
    const result = update(environment, "2.0.0");
    expect(result.packageBackup).toBeDefined();
    expect(result.record?.previous).toBeUndefined();
    expect(errorOf(() => rollback(environment))?.code).toBe("no_previous_version");
  });

  it("goes with the copy when it is removed", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    update(environment, "2.0.0");
    remove(environment, "user", "pdf");
    expect(readdirSync(join(packagesDir(environment, "user"), ".previous"))).toEqual([]);
  });

  it.each(["moved-new", "committed", "lock-written"])(
    "survives an update killed at %s as before or after",
    async (point) => {
      const environment = storeEnvironment();
      install(environment, "user", { id: "pdf", version: "1.0.0" });
      const first = versionAndDigest(environment);
      const staged = stagePackage({ id: "pdf", version: "2.0.0" });
      const input = {
        environment,
        scope: "user",
        staged,
        origin: localOrigin(staged.dir),
        reviewed: facts(environment, "user", "pdf"),
        keepPrevious: true,
      };
      const exit = await runStoreChild(
        `const hook = (p) => { if (p === args.point) process.kill(process.pid, "SIGKILL"); };
       store.installPackage(withFaultHook(args.input, hook));`,
        { point, input },
      );
      expect(exit.signal).toBe("SIGKILL");
      const after = versionAndDigest(environment);
      if (point === "moved-new") expect(after).toEqual(first);
      else {
        expect(after.version).toBe("2.0.0");
        // the next writer settles the kept tree, and rollback restores it exactly
        rollback(environment);
        expect(versionAndDigest(environment)).toEqual(first);
      }
    },
  );
});

describe("rollbackPackages", () => {
  it("restores several copies with one commit, those before the first with nothing kept", () => {
    const environment = storeEnvironment();
    for (const id of ["pdf", "docx", "xlsx"]) {
      install(environment, "user", { id, version: "1.0.0" });
      if (id !== "xlsx")
        installStaged(environment, "user", id, stagePackage({ id, version: "2.0.0" }), {
          keepPrevious: true,
        });
    }
    const input = (id: string) => ({
      environment,
      scope: "user" as const,
      id,
      reviewed: facts(environment, "user", id),
    });
    const batch = rollbackPackages([input("pdf"), input("docx"), input("xlsx")]);
    expect(batch.results.map((result) => [result.id, result.record?.version])).toEqual([
      ["pdf", "1.0.0"],
      ["docx", "1.0.0"],
    ]);
    expect(batch.failure).toMatchObject({ index: 2, error: { code: "no_previous_version" } });
    const versions = Object.fromEntries(
      readPackageSnapshot(environment).copies.map((copy) => [copy.id, copy.record?.version]),
    );
    expect(versions).toEqual({ docx: "1.0.0", pdf: "1.0.0", xlsx: "1.0.0" });
    expect(readdirSync(join(packagesDir(environment, "user"), ".previous"))).toEqual([]);
  });
});
