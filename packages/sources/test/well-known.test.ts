import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { RequestListener } from "node:http";
import { join } from "node:path";
import type { PackageSource } from "@skillshelf/core";
import { describeSource, parseSourceUrl, sourceWithin, stageSource } from "@skillshelf/sources";
import { serve, siteRoutes, skillFile, tarGz, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { skillNames, stageFailure } from "./_staging.js";

const pdf = Buffer.from(skillFile("pdf", "Read PDF files."));
const deploy = tarGz([
  { path: "deploy/SKILL.md", content: skillFile("deploy", "Deploy the site.") },
  { path: "deploy/scripts/run.sh", content: "echo run\n", mode: 0o755 },
]);

/** A loopback site and the requests it answered, by path. */
async function site(routes: Parameters<typeof serve>[0]) {
  const requests: string[] = [];
  const base = await serve(
    Object.fromEntries(
      Object.entries(routes).map(([path, route]) => [
        path,
        ((request, response) => {
          requests.push(path);
          if (Buffer.isBuffer(route)) response.end(route);
          else route(request, response);
        }) satisfies RequestListener,
      ]),
    ),
  );
  return { base, requests, source: { type: "well-known", url: base } as PackageSource };
}

describe("a site's .well-known skills index as a source (issue 27, item 2)", () => {
  it("reads a site's root, its index URL, or wk: with a path, each with //<skill>", () => {
    expect(parseSourceUrl("https://skills.example.com", "/")).toEqual({
      ok: true,
      source: { type: "well-known", url: "https://skills.example.com" },
    });
    expect(
      parseSourceUrl("https://example.com/.well-known/agent-skills/index.json//pdf", "/"),
    ).toEqual({
      ok: true,
      source: {
        type: "well-known",
        url: "https://example.com/.well-known/agent-skills/index.json",
        path: "pdf",
      },
    });
    const below = parseSourceUrl("wk:https://example.com/docs#path=pdf", "/");
    expect(below).toEqual({
      ok: true,
      source: { type: "well-known", url: "https://example.com/docs", path: "pdf" },
    });
    if (below.ok) expect(describeSource(below.source)).toBe("wk:https://example.com/docs//pdf");
    expect(describeSource({ type: "well-known", url: "https://example.com", path: "pdf" })).toBe(
      "https://example.com//pdf",
    );
  });

  it("refuses plain http to another host, credentials in the URL, and a page that is no site", () => {
    const code = (text: string) => {
      const parsed = parseSourceUrl(text, "/");
      return parsed.ok ? parsed.source.type : parsed.code;
    };
    expect(code("http://example.com")).toBe("source_insecure");
    expect(code("https://user:token@example.com")).toBe("source_invalid");
    expect(code("https://example.com/blog/post")).toBe("source_invalid");
    expect(code("wk:ftp://example.com")).toBe("source_invalid");
    expect(code("http://127.0.0.1:8080")).toBe("well-known");
  });

  it("stages every listed skill, checked against its digest, as a collection of folders", async () => {
    const { source } = await site(
      siteRoutes([
        { name: "pdf", type: "skill-md", bytes: pdf },
        { name: "deploy", type: "archive", bytes: deploy },
        { name: "later", type: "mcp-server", bytes: Buffer.from("{}") },
      ]),
    );
    const staged = await stageSource(source);
    try {
      expect(readdirSync(staged.dir).sort()).toEqual(["deploy", "pdf"]);
      expect(readFileSync(join(staged.dir, "pdf/SKILL.md"))).toEqual(pdf);
      expect(existsSync(join(staged.dir, "deploy/scripts/run.sh"))).toBe(true);
      expect(skillNames(staged.dir)).toEqual(["deploy", "pdf"]);
    } finally {
      staged.release();
    }
  });

  it("fetches only the chosen skill of a source narrowed to it", async () => {
    const { source, requests } = await site(
      siteRoutes([
        { name: "pdf", type: "skill-md", bytes: pdf },
        { name: "deploy", type: "archive", bytes: deploy },
      ]),
    );
    const staged = await stageSource(sourceWithin(source, "deploy"));
    try {
      expect(readdirSync(staged.dir).sort()).toEqual(["SKILL.md", "scripts"]);
      expect(requests).toEqual([
        "/.well-known/agent-skills/index.json",
        "/.well-known/agent-skills/deploy/deploy.tar.gz",
      ]);
    } finally {
      staged.release();
    }
  });

  it("reads the older /.well-known/skills/ index when the site has no agent-skills one", async () => {
    const { source } = await site({
      "/.well-known/skills/index.json": Buffer.from(
        JSON.stringify({
          skills: [{ name: "pdf", description: "PDFs.", files: ["SKILL.md", "refs/forms.md"] }],
        }),
      ),
      "/.well-known/skills/pdf/SKILL.md": pdf,
      "/.well-known/skills/pdf/refs/forms.md": Buffer.from("# Forms\n"),
    });
    const staged = await stageSource(sourceWithin(source, "pdf"));
    try {
      expect(readFileSync(join(staged.dir, "refs/forms.md"), "utf8")).toBe("# Forms\n");
    } finally {
      staged.release();
    }
  });

  it("writes nothing when a download does not match its digest", async () => {
    const { base, source } = await site(
      siteRoutes([
        { name: "pdf", type: "skill-md", bytes: pdf },
        { name: "deploy", type: "archive", bytes: deploy, digest: `sha256:${"0".repeat(64)}` },
      ]),
    );
    const tempDir = testdir();
    expect(await stageFailure(source, { tempDir })).toEqual({
      code: "digest_mismatch",
      details: expect.objectContaining({
        url: `${base}/.well-known/agent-skills/deploy/deploy.tar.gz`,
        expected: "0".repeat(64),
      }),
    });
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it.each([
    ["an index that is not JSON", Buffer.from("<html>"), "site_index_invalid"],
    ["an index without a skills list", Buffer.from('{"skill":[]}'), "site_index_invalid"],
    [
      "an entry whose name would leave its folder",
      Buffer.from(
        JSON.stringify({
          skills: [{ name: "../x", type: "skill-md", url: "x", digest: "sha256:0" }],
        }),
      ),
      "site_index_invalid",
    ],
    [
      "an entry without a digest",
      Buffer.from(
        JSON.stringify({ skills: [{ name: "pdf", type: "skill-md", url: "pdf/SKILL.md" }] }),
      ),
      "site_index_invalid",
    ],
    [
      "an older index's file path that climbs out",
      Buffer.from(JSON.stringify({ skills: [{ name: "pdf", files: ["../../secret"] }] })),
      "site_index_invalid",
    ],
  ])("refuses %s (nothing written)", async (_case, index, code) => {
    const { base, source } = await site({ "/.well-known/agent-skills/index.json": index });
    const tempDir = testdir();
    expect(await stageFailure(source, { tempDir })).toEqual({
      code,
      details: { url: `${base}/.well-known/agent-skills/index.json` },
    });
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("names the site that serves no index, the skill it does not list, and a server failure", async () => {
    const empty = await site({});
    expect((await stageFailure(empty.source))?.code).toBe("site_index_missing");
    const listed = await site(siteRoutes([{ name: "pdf", type: "skill-md", bytes: pdf }]));
    expect(await stageFailure(sourceWithin(listed.source, "docx"))).toEqual({
      code: "site_skill_missing",
      details: { url: `${listed.base}/.well-known/agent-skills/index.json`, skill: "docx" },
    });
    const failing = await site({
      "/.well-known/agent-skills/index.json": (_request, response) => response.writeHead(503).end(),
    });
    expect(await stageFailure(failing.source)).toEqual({
      code: "download_failed",
      details: { url: `${failing.base}/.well-known/agent-skills/index.json`, status: 503 },
    });
  });

  it("unpacks an archive entry under every archive rule, and within the download limit", async () => {
    const hostile = tarGz([
      { path: "SKILL.md", content: skillFile("evil", "Evil.") },
      { path: "link", type: "symlink", target: "../../etc/passwd" },
    ]);
    const { source } = await site(siteRoutes([{ name: "evil", type: "archive", bytes: hostile }]));
    expect((await stageFailure(source))?.code).toBe("archive_entry_refused");
    const big = await site(siteRoutes([{ name: "pdf", type: "skill-md", bytes: pdf }]));
    expect((await stageFailure(big.source, { limits: { maxDownloadBytes: 300 } }))?.code).toBe(
      "archive_too_large",
    );
  });

  it("sends a host's configured headers, and names the host that asks for credentials", async () => {
    const routes = siteRoutes([{ name: "pdf", type: "skill-md", bytes: pdf }]);
    const guarded = Object.fromEntries(
      Object.entries(routes).map(([path, bytes]) => [
        path,
        ((request, response) => {
          if (request.headers.authorization !== "Bearer s3cret") response.writeHead(401).end();
          else response.end(bytes);
        }) satisfies RequestListener,
      ]),
    );
    const { base, source } = await site(guarded);
    const host = new URL(base).host;
    expect(await stageFailure(source)).toEqual({
      code: "auth_required",
      details: expect.objectContaining({ host }),
    });
    const staged = await stageSource(source, {
      headers: async (url) => (url.host === host ? { authorization: "Bearer s3cret" } : {}),
    });
    staged.release();
  });
});
