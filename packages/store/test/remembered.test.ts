import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Environment } from "@skillshelf/core";
import {
  createScopeCache,
  packagesDir,
  readPackageSnapshot,
  readScopeState,
  recheckCopies,
} from "@skillshelf/store";
import { installPackages, removePackages } from "@skillshelf/store/writers";
import { describe, expect, it } from "vitest";
import { REMEMBERED_FORMAT } from "../src/_remembered.js";
import { facts, install, installInput, remove, stagePackage, storeEnvironment } from "./_store.js";

const rememberedPath = (environment: Environment) =>
  join(packagesDir(environment, "user"), ".remembered.json");
const remembered = (environment: Environment) =>
  JSON.parse(readFileSync(rememberedPath(environment), "utf8"));
const copy = (environment: Environment, id: string) =>
  readPackageSnapshot(environment).copies.find((one) => one.id === id);
const codes = (environment: Environment, id: string) =>
  copy(environment, id)?.diagnostics.map((diagnostic) => diagnostic.code);

describe("what a read remembers of the copies (issue 31, item 0b)", () => {
  it("is taken while the tree's stamp holds, so a read after it neither walks nor reads the copy", () => {
    const environment = storeEnvironment();
    const { record } = install(environment, "user", { id: "pdf" });
    expect(copy(environment, "pdf")?.valid).toBe(true);
    const file = remembered(environment);
    expect(file.format).toBe(REMEMBERED_FORMAT);
    expect(file.trees.pdf).toMatchObject({
      digest: record?.contentDigest,
      manifest: { id: "pdf", manifestPath: "plugin.json" },
    });
    expect(file.trees.pdf.nodes).toContain("plugin.json");
    // a remembered digest that no read could give: taken as it is, so the copy reads as drifted
    file.trees.pdf.digest = "0".repeat(64);
    writeFileSync(rememberedPath(environment), JSON.stringify(file));
    expect(codes(environment, "pdf")).toEqual(["content_drift"]);
    // verify alone reads every byte again, and finds nothing wrong
    const state = readScopeState(environment, "user");
    if (!state.ok) throw new Error("state unreadable");
    expect(recheckCopies(environment, "user", state.value.state)).toEqual([]);
  });

  it("is not taken once a file of the copy changed, and is replaced by what was read", () => {
    const environment = storeEnvironment();
    const { record } = install(environment, "user", { id: "pdf" });
    copy(environment, "pdf");
    appendFileSync(join(packagesDir(environment, "user"), "pdf", "plugin.json"), "\n");
    expect(codes(environment, "pdf")).toEqual(["content_drift"]);
    const changed = remembered(environment).trees.pdf.digest;
    expect(changed).not.toBe(record?.contentDigest);
    expect(codes(environment, "pdf")).toEqual(["content_drift"]);
  });

  it("is ignored when damaged, of another format, or naming nodes outside the copy", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    copy(environment, "pdf");
    const good = remembered(environment);
    for (const damaged of [
      "{ not json",
      JSON.stringify({ ...good, format: REMEMBERED_FORMAT + 1 }),
      JSON.stringify({ format: REMEMBERED_FORMAT, trees: null }),
      JSON.stringify({
        format: REMEMBERED_FORMAT,
        trees: { pdf: { ...good.trees.pdf, digest: "0".repeat(64), nodes: ["../.."] } },
      }),
      JSON.stringify({
        format: REMEMBERED_FORMAT,
        trees: { pdf: { ...good.trees.pdf, digest: "0".repeat(64), nodes: "plugin.json" } },
      }),
    ]) {
      writeFileSync(rememberedPath(environment), damaged);
      expect(copy(environment, "pdf")?.valid).toBe(true);
      expect(remembered(environment)).toEqual(good);
    }
  });

  it("is written by reads of the whole scope, which forget copies that are gone", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    install(environment, "user", { id: "docx" });
    copy(environment, "pdf");
    expect(Object.keys(remembered(environment).trees)).toEqual(["docx", "pdf"]);
    install(environment, "user", { id: "xlsx" });
    // a writer's check of one copy, repeated for each of many, does not weigh every entry
    readPackageSnapshot(environment, { ids: ["xlsx"], cache: createScopeCache() });
    expect(Object.keys(remembered(environment).trees)).toEqual(["docx", "pdf"]);
    copy(environment, "xlsx");
    expect(Object.keys(remembered(environment).trees)).toEqual(["docx", "pdf", "xlsx"]);
    remove(environment, "user", "docx");
    copy(environment, "pdf");
    expect(Object.keys(remembered(environment).trees)).toEqual(["pdf", "xlsx"]);
  });

  it("is written by a writer that moved trees in or out, with the stamps it took staging them", () => {
    const environment = storeEnvironment();
    const ids = ["docx", "pdf", "xlsx"];
    const cache = createScopeCache();
    const installed = installPackages(
      ids.map((id) =>
        installInput(
          environment,
          "user",
          id,
          { ...stagePackage({ id }), disposable: true },
          { cache },
        ),
      ),
    );
    expect(installed.failure).toBeUndefined();
    const file = remembered(environment);
    expect(Object.keys(file.trees)).toEqual(ids);
    for (const result of installed.results) {
      expect(file.trees[result.id].digest).toBe(result.record?.contentDigest);
      expect(file.trees[result.id].nodes).toContain("plugin.json");
    }
    // a fresh read takes what the install remembered: a digest no read could give reads as drift
    file.trees.pdf.digest = "0".repeat(64);
    writeFileSync(rememberedPath(environment), JSON.stringify(file));
    expect(codes(environment, "pdf")).toEqual(["content_drift"]);
    const removed = removePackages(
      ["docx", "xlsx"].map((id) => ({
        environment,
        scope: "user" as const,
        id,
        reviewed: facts(environment, "user", id),
        cache: createScopeCache(),
      })),
    );
    expect(removed.failure).toBeUndefined();
    expect(Object.keys(remembered(environment).trees)).toEqual(["pdf"]);
  });

  it("is rewritten once a twentieth of it is new, not after every install", () => {
    const environment = storeEnvironment();
    for (let index = 0; index < 40; index++) install(environment, "user", { id: `pkg-${index}` });
    copy(environment, "pkg-0");
    expect(Object.keys(remembered(environment).trees)).toHaveLength(40);
    install(environment, "user", { id: "late-1" });
    expect(copy(environment, "late-1")?.valid).toBe(true);
    // one new copy in 41: read afresh each time until more have changed
    expect(remembered(environment).trees["late-1"]).toBeUndefined();
    install(environment, "user", { id: "late-2" });
    expect(copy(environment, "late-2")?.valid).toBe(true);
    expect(Object.keys(remembered(environment).trees)).toHaveLength(42);
  });

  it("changes format whenever the sources that read a manifest change", () => {
    // raise REMEMBERED_FORMAT in src/_remembered.ts, then put the digest this test prints here
    const sources = [
      "manifest.ts",
      "_manifest-schema.ts",
      "_declarations.ts",
      "_paths.ts",
      "_claude-plugin.ts",
    ];
    const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
    const hash = createHash("sha256");
    for (const source of sources) hash.update(readFileSync(join(src, source)));
    expect({ format: REMEMBERED_FORMAT, sources: hash.digest("hex") }).toEqual({
      format: 4,
      sources: "fe8b5fb7ef673532ed7a5f8c606bf9ac7d4dff69a0fb6224733197fd56be879b",
    });
  });
});
