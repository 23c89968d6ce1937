import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  lockFilePath,
  lockFromState,
  lockRoot,
  packagesDir,
  readLockFile,
  readScopeState,
  serializeLockFile,
} from "@skillshelf/store";
import { describe, expect, it } from "vitest";
import {
  errorOf,
  install,
  installStaged,
  remove,
  stagePackage,
  storeEnvironment,
  switchCopy,
} from "./_store.js";

function lockOf(environment: ReturnType<typeof storeEnvironment>, scope: "user" | "project") {
  const read = readLockFile(environment, scope);
  if (!read.ok) throw new Error(read.diagnostics[0]?.message);
  return read.value;
}

describe("lock.json", () => {
  it("is written beside packages/ by the first commit, canonical and without timestamps", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.2.0", requires: ["skill:b", "skill:a"] });
    const path = lockFilePath(environment, "user");
    expect(dirname(path)).toBe(dirname(packagesDir(environment, "user")));
    const { value, text } = lockOf(environment, "user");
    expect(value.packages.pdf).toMatchObject({
      kind: "plugin",
      version: "1.2.0",
      format: "skillshelf",
      trust: "trusted",
      enabled: true,
      requires: ["skill:a", "skill:b"],
      source: { type: "local" },
    });
    expect(text).toBe(serializeLockFile(value));
    expect(text).not.toMatch(/installedAt|\d{4}-\d\d-\d\dT/);
  });

  it("follows every writer: enable, disable and remove change only that package's entry", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    install(environment, "user", { id: "slides" });
    switchCopy(environment, "user", "pdf", false);
    expect(lockOf(environment, "user").value.packages.pdf?.enabled).toBe(false);
    switchCopy(environment, "user", "pdf", true);
    expect(lockOf(environment, "user").value.packages.pdf?.enabled).toBe(true);
    remove(environment, "user", "pdf");
    expect(Object.keys(lockOf(environment, "user").value.packages)).toEqual(["slides"]);
    const state = readScopeState(environment, "user");
    if (!state.ok) throw new Error("state unreadable");
    expect(lockOf(environment, "user").value).toEqual(
      lockFromState(state.value.state, lockRoot(environment, "user")),
    );
  });

  it("keeps entries the state does not hold (a teammate's pull) when another package changes", () => {
    const environment = storeEnvironment();
    install(environment, "project", { id: "pdf" });
    const path = lockFilePath(environment, "project");
    const pulled = JSON.parse(readFileSync(path, "utf8"));
    pulled.packages.other = { ...pulled.packages.pdf, digest: "a".repeat(64) };
    writeFileSync(path, serializeLockFile(pulled));
    install(environment, "project", { id: "slides" });
    expect(Object.keys(lockOf(environment, "project").value.packages)).toEqual([
      "other",
      "pdf",
      "slides",
    ]);
  });

  it("writes a local source inside the project relative to it, and a .gitignore for copies", () => {
    const environment = storeEnvironment();
    const staged = join(environment.project, "vendor", "pdf");
    mkdirSync(staged, { recursive: true });
    const folder = stagePackage({ id: "pdf" });
    installStaged(environment, "project", "pdf", folder, {
      origin: { source: { type: "local", path: staged } },
    });
    expect(lockOf(environment, "project").value.packages.pdf?.source).toEqual({
      type: "local",
      path: "./vendor/pdf",
    });
    expect(readFileSync(join(packagesDir(environment, "project"), ".gitignore"), "utf8")).toBe(
      "*\n",
    );
    expect(existsSync(join(packagesDir(environment, "user"), ".gitignore"))).toBe(false);
  });

  it("that does not parse is reported with its path, refuses every writer and is never overwritten", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const path = lockFilePath(environment, "user");
    writeFileSync(path, "{ not json");
    const read = readLockFile(environment, "user");
    expect(read.ok).toBe(false);
    expect(read.diagnostics[0]).toMatchObject({ code: "lock_invalid", path });
    expect(errorOf(() => install(environment, "user", { id: "slides" }))?.code).toBe(
      "lock_invalid",
    );
    expect(errorOf(() => switchCopy(environment, "user", "pdf", false))?.code).toBe("lock_invalid");
    expect(readFileSync(path, "utf8")).toBe("{ not json");
  });

  it("refuses an unknown key like the state does", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const path = lockFilePath(environment, "user");
    const lock = JSON.parse(readFileSync(path, "utf8"));
    lock.packages.pdf.extra = true;
    writeFileSync(path, JSON.stringify(lock));
    const read = readLockFile(environment, "user");
    expect(read.diagnostics.map((d) => d.code)).toEqual(["lock_invalid", "key_unknown"]);
  });
});
