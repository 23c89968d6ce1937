import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readPackageManifest } from "@skillshelf/store";
import { CORPUS_DIR, corpusFiles, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const manifests = [...corpusFiles("plugin"), ...corpusFiles("plugin-other")]
  .map((file) => file.path)
  .filter((path) => path.endsWith("/plugin.json"));

/** Place a corpus manifest where it sits in its repository, relative to a fresh package folder. */
function placed(path: string): { root: string; data: Record<string, unknown> } {
  const root = testdir();
  const relative = path.split("/").slice(-2)[0]?.startsWith(".")
    ? path.split("/").slice(-2).join("/")
    : "plugin.json";
  mkdirSync(dirname(join(root, relative)), { recursive: true });
  copyFileSync(join(CORPUS_DIR, path), join(root, relative));
  return { root, data: JSON.parse(readFileSync(join(CORPUS_DIR, path), "utf8")) };
}

function namedFolders(data: Record<string, unknown>): string[] {
  return ["skills", "commands", "agents"].flatMap((key) => {
    const value = data[key];
    return typeof value === "string" ? [value] : Array.isArray(value) ? value.map(String) : [];
  });
}

describe("every plugin.json in the corpus", () => {
  it("holds the manifests this test expects", () => {
    expect(manifests.filter((path) => path.includes("/.claude-plugin/")).length).toBe(50);
    expect(manifests.length).toBe(55);
  });

  it.each(manifests.filter((path) => path.includes("/.claude-plugin/")))(
    "%s reads as a claude-code package",
    (path) => {
      const { root, data } = placed(path);
      const folders = namedFolders(data);
      if (folders.length > 0) {
        expect(
          readPackageManifest(root)
            .diagnostics.filter((d) => d.severity === "error")
            .map((d) => d.code),
        ).toEqual(folders.map(() => "path_missing"));
        for (const folder of folders) mkdirSync(join(root, folder), { recursive: true });
      }
      const read = readPackageManifest(root);
      const { diagnostics } = read;
      const manifest = read.ok ? read.value : undefined;
      expect(diagnostics.filter((diagnostic) => diagnostic.severity !== "info")).toEqual([]);
      expect(manifest).toMatchObject({
        id: data.name,
        format: "claude-code",
        kind: "plugin",
        version: data.version,
      });
    },
  );

  it.each(
    manifests.filter((path) =>
      /^plugins\/github-awesome-copilot\/plugins\/[^/]+\/plugin\.json$/.test(path),
    ),
  )("%s is an Agent Plugins manifest our format reads as a plain plugin", (path) => {
    const { root, data } = placed(path);
    expect(readPackageManifest(root)).toMatchObject({
      ok: true,
      value: { id: data.name, format: "skillshelf", kind: "plugin" },
      diagnostics: [],
    });
  });

  it.each(manifests.filter((path) => /\/\.(codex|kimi)-plugin\//.test(path)))(
    "%s is another agent's manifest, not a package",
    (path) => {
      expect(readPackageManifest(placed(path).root).diagnostics.map((d) => d.code)).toEqual([
        "manifest_missing",
      ]);
    },
  );
});
