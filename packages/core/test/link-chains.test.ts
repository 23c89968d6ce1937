import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  copyTree,
  digestTree,
  isInside,
  type PathAccess,
  resolveContained,
} from "@skillshelf/core";
import { chainedLinkTree, link, pick, seededRandom, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("a chain of .. links (issue 8, item 1)", () => {
  it("leaves the tree in the kernel although each link stays inside lexically", () => {
    const root = testdir(chainedLinkTree());
    const leak = join(root, "skills/leak/reference.md");
    // the kernel really reaches /etc/passwd: the test tree is hostile, not merely odd
    expect(realpathSync.native(leak)).toBe("/etc/passwd");
    expect(readFileSync(leak, "utf8")).toBe(readFileSync("/etc/passwd", "utf8"));
    expect(resolveContained(leak, root)).toEqual({ status: "outside", real: "/etc/passwd" });
    expect(resolveContained(leak, root, { relocatable: true }).status).toBe("outside");
    expect(resolveContained(join(root, "p1"), root, { relocatable: true }).status).toBe("outside");
  });

  it("is refused by the tree digest and the tree copy, which leaves nothing", () => {
    const root = testdir(chainedLinkTree());
    expect(() => digestTree(root)).toThrow(expect.objectContaining({ code: "tree_link_escape" }));
    const to = join(testdir(), "copy");
    expect(() => copyTree(root, to)).toThrow(expect.objectContaining({ code: "tree_link_escape" }));
    expect(existsSync(to)).toBe(false);
  });

  it("refuses a link that leaves and comes back, since the tree is moved when installed", () => {
    const container = testdir({ "pkg/a.md": "x", "pkg/back": link("../pkg/a.md") });
    const root = join(container, "pkg");
    expect(resolveContained(join(root, "back"), root).status).toBe("inside");
    expect(resolveContained(join(root, "back"), root, { relocatable: true }).status).toBe(
      "outside",
    );
    expect(() => digestTree(root)).toThrow(expect.objectContaining({ code: "tree_link_escape" }));
  });

  it("resolves a tree that is not on disk through a PathAccess", () => {
    const nodes = new Map<string, string | undefined>([
      ["/pkg/d", undefined],
      ["/pkg/d/up", ".."],
      ["/pkg/p1", "d/up/.."],
      ["/pkg/ok", "d/../d"],
    ]);
    const access: PathAccess = {
      kindOf: (path) =>
        nodes.has(path) ? (nodes.get(path) === undefined ? "directory" : "link") : undefined,
      readLink: (path) => nodes.get(path) as string,
    };
    expect(resolveContained("/pkg/p1", "/pkg", { relocatable: true, access }).status).toBe(
      "outside",
    );
    expect(resolveContained("/pkg/ok", "/pkg", { relocatable: true, access })).toEqual({
      status: "inside",
      real: "/pkg/d",
    });
    expect(resolveContained("/pkg/ok/gone", "/pkg", { relocatable: true, access })).toEqual({
      status: "missing",
    });
  });
});

// --- the property: whatever we call inside, the kernel resolves inside ---

const NAMES = ["a", "b", "c", "l1", "l2", "l3", "l4"];

function randomGraph(random: () => number): { files: string[]; links: Map<string, string> } {
  const folders = ["", "a", "b", "a/c"];
  const files = ["a/f.md", "b/g.md", "top.md"];
  const links = new Map<string, string>();
  const count = 1 + Math.floor(random() * 6);
  for (let index = 0; index < count; index++) {
    const at = `${pick(random, folders)}/l${index + 1}`.replace(/^\//, "");
    const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
      pick(random, [".", "..", "..", ...NAMES, "f.md", "missing"]),
    );
    links.set(at, parts.join("/"));
  }
  return { files, links };
}

function kernel(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

describe("containment property over random link graphs (issue 8, item 1)", () => {
  it("agrees with the kernel, and what it calls relocatable stays inside once moved", () => {
    const random = seededRandom(8);
    let insideSeen = 0;
    let outsideSeen = 0;
    for (let trial = 0; trial < 250; trial++) {
      const container = testdir();
      const root = join(container, "r");
      const { files, links } = randomGraph(random);
      for (const folder of ["a", "b", "a/c"]) mkdirSync(join(root, folder), { recursive: true });
      for (const file of files) writeFileSync(join(root, file), file);
      for (const [at, target] of links) symlinkSync(target, join(root, at));
      const moved = join(container, "moved");
      cpSync(root, moved, { recursive: true, verbatimSymlinks: true });
      const queries = [...links.keys()].flatMap((at) => [at, `${at}/..`, `${at}/f.md`, `${at}/c`]);
      for (const query of queries) {
        const path = `${root}/${query}`;
        const real = kernel(path);
        const final = resolveContained(path, root);
        if (real === undefined) expect(final, query).toEqual({ status: "missing" });
        else
          expect(final, query).toEqual({
            status: isInside(root, real) ? "inside" : "outside",
            real,
          });
        const relocatable = resolveContained(path, root, { relocatable: true });
        if (relocatable.status === "inside") {
          insideSeen += 1;
          expect(relocatable.real, query).toBe(real);
          const movedReal = kernel(`${moved}/${query}`);
          expect(movedReal !== undefined && isInside(moved, movedReal), query).toBe(true);
        } else if (relocatable.status === "outside") outsideSeen += 1;
        else expect(real === undefined || isInside(root, real), query).toBe(true);
      }
    }
    // the generator reaches both answers often, so the property is not vacuous
    expect(insideSeen).toBeGreaterThan(100);
    expect(outsideSeen).toBeGreaterThan(100);
  });
});
