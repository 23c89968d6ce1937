import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { isSkillshelfError, type PackageSource } from "@skillshelf/core";
import { parseSourceUrl, readIndex, stageSource } from "@skillshelf/sources";
import {
  chainedLinkTarMembers,
  chainedLinkTree,
  fixChecksum,
  gitEnv,
  gitRepo,
  pick,
  seededRandom,
  serve,
  serveHttps,
  type TarMember,
  tarBytes,
  tarGz,
  testdir,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runSourcesChild } from "./_child.js";

// Every case here is one of the defects issue 8 reports, reproduced before it was fixed.

async function stageOutcome(
  source: PackageSource,
  options: Parameters<typeof stageSource>[1] = {},
): Promise<{ code: string | undefined; details?: unknown; path?: string | undefined }> {
  try {
    (await stageSource(source, options)).release();
    return { code: undefined };
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return { code: error.code, details: error.details, path: error.path };
  }
}

/** Stage in a child process, killed after `timeoutMs`: a parser that spins cannot hang the run. */
async function stageInChild(
  urls: readonly string[],
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<Array<{ code?: string; details?: Record<string, unknown> }>> {
  const run = await runSourcesChild(
    `const outcomes = [];
for (const url of args.urls) {
  try {
    (await sources.stageSource({ type: "archive", url }, { tempDir: args.tempDir })).release();
    outcomes.push({});
  } catch (error) {
    outcomes.push({ code: error.code ?? "uncoded:" + String(error), details: error.details });
  }
}
console.log(JSON.stringify(outcomes));`,
    { urls, tempDir: testdir() },
    { timeoutMs: options.timeoutMs ?? 30_000, ...(options.env ? { env: options.env } : {}) },
  );
  expect(run.killed, "the child had to be killed: staging did not end").toBe(false);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe("item 1: a chain of .. links that the kernel follows out of the package", () => {
  const tree = chainedLinkTree();

  it("is refused from a local folder, and nothing is left behind", async () => {
    const tempDir = testdir();
    const source = testdir(tree);
    expect(readFileSync(join(source, "skills/leak/reference.md"), "utf8")).toBe(
      readFileSync("/etc/passwd", "utf8"),
    );
    const outcome = await stageOutcome({ type: "local", path: source }, { tempDir });
    expect(outcome.code).toBe("tree_link_escape");
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("is refused from a git repository", async () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree }], env);
    const tempDir = testdir();
    expect((await stageOutcome({ type: "git", url: repo.path }, { env, tempDir })).code).toBe(
      "tree_link_escape",
    );
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("is refused from a .tar.gz before anything is written", async () => {
    const members = chainedLinkTarMembers();
    const base = await serve({ "/leak.tar.gz": tarGz(members) });
    const tempDir = testdir();
    const outcome = await stageOutcome(
      { type: "archive", url: `${base}/leak.tar.gz` },
      { tempDir },
    );
    expect(outcome.code).toBe("archive_entry_refused");
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("is refused when a subfolder's link leaves the subfolder, though not the archive", async () => {
    const base = await serve({
      "/sub.tar.gz": tarGz([
        { path: "other/secret.md", content: "x" },
        { path: "pkg/plugin.json", content: "{}" },
        { path: "pkg/peek.md", type: "symlink", target: "../other/secret.md" },
      ]),
    });
    const outcome = await stageOutcome({ type: "archive", url: `${base}/sub.tar.gz`, path: "pkg" });
    expect(outcome).toMatchObject({
      code: "archive_entry_refused",
      details: { entry: "peek.md" },
    });
  });
});

describe("item 2: the archive reader always ends", () => {
  const malformed: Array<[string, TarMember[]]> = [
    [
      "a pax size=-512 before a g header",
      [
        { path: "PaxHeader", type: "pax", records: ["size=-512"] },
        { path: "GlobalHead", type: "globalPax", records: ["comment=x"] },
        { path: "a", content: "x" },
      ],
    ],
    [
      "a pax size=abc (it used to truncate the archive silently)",
      [
        { path: "PaxHeader", type: "pax", records: ["size=abc"] },
        { path: "a", content: "hello" },
        { path: "b", content: "x" },
      ],
    ],
    ["a negative ustar size", [{ path: "a", content: "x", sizeField: "-0000001000\0" }]],
  ];

  it("each malformed header is archive_invalid naming the member", async () => {
    const base = await serve(
      Object.fromEntries(
        malformed.map(([, members], index) => [`/${index}.tar.gz`, tarGz(members)]),
      ),
    );
    const outcomes = await stageInChild(malformed.map((_, index) => `${base}/${index}.tar.gz`));
    for (const [index, [name]] of malformed.entries()) {
      expect(outcomes[index]?.code, name).toBe("archive_invalid");
      // the member named is the refused one, or the last one read before it
      expect(String(outcomes[index]?.details?.entry), name).toMatch(
        /^(the first member|the member after "|PaxHeader|GlobalHead|a$)/,
      );
    }
  });

  it.each<[string, TarMember[]]>([
    ["a size that is not octal", [{ path: "a", content: "x", sizeField: "12abc\0" }]],
    [
      "a pax record whose length runs past the header",
      [{ path: "PaxHeader", type: "pax", content: "999 path=a\n" }, { path: "a" }],
    ],
  ])("%s ends, read or refused", async (_name, members) => {
    // tar-stream reads a number up to its first non-octal digit and skips a pax record it cannot
    // read, where GNU tar refuses both; either way the members are checked as any others
    const base = await serve({ "/odd.tar.gz": tarGz(members) });
    const [outcome] = await stageInChild([`${base}/odd.tar.gz`]);
    expect([undefined, "archive_invalid"]).toContain(outcome?.code);
  });

  it("a pax size=-512 replaced by a later pax header is read by the header that counts", async () => {
    // tar-stream keeps only the last pax header before a member, as POSIX says
    const members: TarMember[] = [
      { path: "PaxHeader", type: "pax", records: ["size=-512"] },
      { path: "PaxHeader2", type: "pax", records: ["path=a"] },
      { path: "a", content: "x" },
    ];
    const base = await serve({ "/later.tar.gz": tarGz(members) });
    const staged = await stageSource({ type: "archive", url: `${base}/later.tar.gz` });
    expect(readdirSync(staged.dir)).toEqual(["a"]);
    expect(readFileSync(join(staged.dir, "a"), "utf8")).toBe("x");
    staged.release();
  });

  it("a header whose checksum does not match is archive_invalid", async () => {
    const tar = tarBytes([{ path: "a", content: "x" }]);
    tar[0] = "b".charCodeAt(0);
    const base = await serve({ "/sum.tar.gz": gzipSync(tar) });
    expect((await stageOutcome({ type: "archive", url: `${base}/sum.tar.gz` })).code).toBe(
      "archive_invalid",
    );
  });

  it("ends on random and mutated headers with a staged tree or a coded error", async () => {
    const random = seededRandom(2026);
    const valid: TarMember[] = [
      { path: "pkg/plugin.json", content: "{}", pax: true },
      { path: "pkg/skills", type: "directory" },
      { path: "pkg/skills/a.md", content: "alpha".repeat(200) },
      { path: "pkg/alias.md", type: "symlink", target: "skills/a.md" },
      { path: "pkg/tools/run.sh", content: "#!/bin/sh\n", mode: 0o755 },
    ];
    const SIZES = ["-512", "abc", "", "77777777777", "99999999", "1e3", " 12", "0x10"];
    const cases: Buffer[] = [];
    for (let index = 0; index < 300; index++) {
      const kind = index % 4;
      if (kind === 3) {
        cases.push(
          Buffer.from(Array.from({ length: 512 * (1 + (index % 5)) }, () => random() * 256)),
        );
        continue;
      }
      const members = [...valid];
      if (kind === 2)
        members.splice(Math.floor(random() * members.length), 0, {
          path: "PaxHeader",
          type: pick(random, ["pax", "globalPax"] as const),
          records: [`${pick(random, ["size", "path", "linkpath", "x"])}=${pick(random, SIZES)}`],
        });
      const tar = tarBytes(members);
      const headers: number[] = [];
      for (let offset = 0; offset < tar.length; offset += 512)
        if (tar.subarray(offset + 257, offset + 262).toString() === "ustar") headers.push(offset);
      const at = pick(random, headers);
      if (kind === 0)
        for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--)
          tar[at + Math.floor(random() * 512)] = Math.floor(random() * 256);
      else if (kind === 1) tar.write(pick(random, SIZES).padEnd(12, "\0"), at + 124, 12, "latin1");
      if (random() < 0.8) fixChecksum(tar, at);
      cases.push(random() < 0.1 ? tar.subarray(0, Math.floor(random() * tar.length)) : tar);
    }
    const routes = Object.fromEntries(
      cases.map((tar, index) => [`/case-${index}.tar.gz`, gzipSync(tar)]),
    );
    const base = await serve(routes);
    const outcomes = await stageInChild(
      cases.map((_, index) => `${base}/case-${index}.tar.gz`),
      { timeoutMs: 120_000 },
    );
    const codes = new Set(outcomes.map((outcome) => outcome.code ?? "staged"));
    for (const code of codes)
      expect([
        "staged",
        "archive_invalid",
        "archive_truncated",
        "archive_entry_refused",
        "archive_too_large",
        "source_subfolder_missing",
      ]).toContain(code);
    // both ends are reached, so the fuzz is not vacuous
    expect(codes).toContain("staged");
    expect(codes).toContain("archive_invalid");
  });
});

describe("item 3: index parsing is linear", () => {
  // the ratio of 10k to 40k keys is measured in core's yaml tests; this is the size that hung
  it("reads a library.yaml of 100,000 keys", () => {
    const row = (index: number) =>
      [
        `- kind: skill`,
        `  name: skill-${index}`,
        `  description: The skill number ${index}.`,
        `  sourceUrl: ./skills/skill-${index}`,
        `  version: 1.0.${index}`,
        `  sha256: ${"ab".repeat(32)}`,
        `  category: generated`,
        `  triggers: [skill-${index}]`,
      ].join("\n");
    const rows = Array.from({ length: 12_500 }, (_, index) => row(index));
    const dir = testdir({ "library.yaml": `${rows.join("\n")}\n` });
    const index = readIndex(join(dir, "library.yaml"));
    expect(index.diagnostics).toEqual([]);
    expect(index.rows).toHaveLength(12_500);
  });
});

describe("item 8: prototype keys in indexes", () => {
  it("a JSON index with a __proto__ key is index_invalid", () => {
    const dir = testdir({
      "marketplace.json": '{"__proto__": {"plugins": []}, "name": "m", "plugins": []}',
    });
    expect(readIndex(join(dir, "marketplace.json")).diagnostics).toMatchObject([
      { code: "index_invalid" },
    ]);
  });

  it.each(["constructor", "__proto__"])("a row named %s is refused", (name) => {
    const dir = testdir({
      "library.yaml": [
        "- kind: skill",
        `  name: ${JSON.stringify(name)}`,
        "  description: d",
        "  sourceUrl: ./x",
        "  version: 1.0.0",
        `  sha256: ${"ab".repeat(32)}`,
        "",
      ].join("\n"),
    });
    const index = readIndex(join(dir, "library.yaml"));
    expect(index.rows).toEqual([]);
    expect(index.diagnostics.map((d) => d.code)).toContain("index_row_invalid");
  });
});

describe("item 7: the caller's environment cannot widen git", () => {
  it("refuses ext:: and fd:: at parse time", () => {
    for (const text of ["git+ext::sh -c touch% /tmp/x", "ext::sh -c touch% /tmp/x", "git+fd::3"])
      expect(parseSourceUrl(text, "/base")).toMatchObject({
        ok: false,
        code: "source_protocol_refused",
      });
  });

  it("refuses an ext:: source even with GIT_ALLOW_PROTOCOL=ext, and runs nothing", async () => {
    const marker = join(testdir(), "ran");
    const env = { ...gitEnv(), GIT_ALLOW_PROTOCOL: "ext" };
    const outcome = await stageOutcome(
      { type: "git", url: `ext::sh -c touch% ${marker}` },
      { env },
    );
    expect(outcome.code).toBe("source_protocol_refused");
    expect(existsSync(marker)).toBe(false);
  });

  it("keeps git's own transport list whatever GIT_ALLOW_PROTOCOL the caller sets", async () => {
    const repo = gitRepo([{ tree: { "plugin.json": "{}" } }]);
    const url = `file://${repo.path}`;
    // the caller's list would forbid file://; git's environment is built from an allow-list
    const env = { ...gitEnv(), GIT_ALLOW_PROTOCOL: "ext" };
    expect((await stageOutcome({ type: "git", url }, { env })).code).toBeUndefined();
  });
});

describe("item 9: every staging failure is coded", () => {
  it.each<[string, TarMember[]]>([
    ["a 300-character name", [{ path: `${"n".repeat(300)}.md`, content: "x" }]],
    [
      "a 40-level path",
      [{ path: `${"level-of-thirty-characters-xx/".repeat(40)}f.md`, pax: true }],
    ],
    [
      "a file f and a file f/g",
      [
        { path: "f", content: "x" },
        { path: "f/g", content: "y" },
      ],
    ],
  ])("%s is archive_entry_refused, not a raw error", async (_name, members) => {
    const base = await serve({ "/a.tar.gz": tarGz(members) });
    const tempDir = testdir();
    const outcome = await stageOutcome({ type: "archive", url: `${base}/a.tar.gz` }, { tempDir });
    expect(outcome.code).toBe("archive_entry_refused");
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("a local folder whose copy would pass the system's path limit is a coded error", async () => {
    const source = testdir({ "plugin.json": "{}" });
    // the source's deepest path just fits in PATH_MAX (4,096); the staging folder's is longer
    const levels = Math.floor((4000 - source.length) / 201);
    const deep = join(source, ...Array.from({ length: levels }, () => "d".repeat(200)));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, "x".repeat(4090 - deep.length)), "x");
    const tempDir = testdir();
    const outcome = await stageOutcome({ type: "local", path: source }, { tempDir });
    expect(outcome.code).toMatch(/^(tree_unreadable|tree_copy_failed)$/);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("a body that stops arriving is download_timeout, not a DOMException", async () => {
    const base = await serve({
      "/stall.tar.gz": (_request, response) => {
        response.writeHead(200, { "content-length": "100000" });
        response.write(Buffer.alloc(1000));
      },
    });
    const outcome = await stageOutcome(
      { type: "archive", url: `${base}/stall.tar.gz` },
      { timeoutMs: 300 },
    );
    expect(outcome).toMatchObject({
      code: "download_timeout",
      details: { url: `${base}/stall.tar.gz` },
    });
  });

  it.each([
    "https://example.com/tools.git#--upload-pack=touch /tmp/x",
    "git+https://example.com/tools#--upload-pack=evil",
    "git+https://example.com/tools#ref=main&upload-pack=evil",
    "git+https://example.com/tools#a=b",
    "git+https://example.com/tools#ref=a..b",
    "https://example.com/pkg.tar.gz#ref=v1",
  ])("%s is source_ref_invalid, not silently dropped", (text) => {
    expect(parseSourceUrl(text, "/base")).toMatchObject({ ok: false, code: "source_ref_invalid" });
  });
});

describe("item 10: redirects follow a written policy", () => {
  const archive = tarGz([{ path: "plugin.json", content: "{}" }]);
  const redirect =
    (location: string) => (_request: unknown, response: import("node:http").ServerResponse) =>
      response.writeHead(302, { location }).end();

  it("follows up to five redirects over http(s), and refuses a sixth", async () => {
    const routes: Record<string, Buffer | ReturnType<typeof redirect>> = {
      "/pkg.tar.gz": archive,
    };
    for (let hop = 1; hop <= 6; hop++)
      routes[`/r${hop}`] = redirect(hop === 1 ? "/pkg.tar.gz" : `/r${hop - 1}`);
    const base = await serve(routes);
    expect((await stageOutcome({ type: "archive", url: `${base}/r5` })).code).toBeUndefined();
    expect((await stageOutcome({ type: "archive", url: `${base}/r6` })).code).toBe(
      "download_redirect_refused",
    );
  });

  it.each(["file:///etc/passwd", "ftp://127.0.0.1/pkg.tar.gz", "data:,hello"])(
    "refuses a redirect to %s",
    async (location) => {
      const base = await serve({ "/go.tar.gz": redirect(location) });
      expect(await stageOutcome({ type: "archive", url: `${base}/go.tar.gz` })).toMatchObject({
        code: "download_redirect_refused",
        details: { url: `${base}/go.tar.gz`, location },
      });
    },
  );

  it("refuses a redirect from https down to http", async () => {
    const http = await serve({ "/pkg.tar.gz": archive });
    const { url, certificate } = await serveHttpsWithRedirect(`${http}/pkg.tar.gz`);
    const [downgraded, followed] = await stageInChild([`${url}/down`, `${url}/pkg.tar.gz`], {
      env: { NODE_EXTRA_CA_CERTS: certificate },
    });
    expect(downgraded?.code).toBe("download_redirect_refused");
    expect(followed?.code).toBeUndefined();
  });
});

/** A loopback https server with a fresh self-signed certificate: `/down` redirects to `httpUrl`. */
function serveHttpsWithRedirect(httpUrl: string): ReturnType<typeof serveHttps> {
  return serveHttps({
    "/down": (_request, response) => response.writeHead(302, { location: httpUrl }).end(),
    "/pkg.tar.gz": tarGz([{ path: "plugin.json", content: "{}" }]),
  });
}
