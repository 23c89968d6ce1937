import { parseSourceUrl, SOURCE_FETCHERS } from "@skillshelf/sources";
import { describe, expect, it } from "vitest";
import { mirrored, mirrorFor } from "../src/mirrors.js";

describe("parseSourceUrl", () => {
  it.each<[string, unknown]>([
    ["./packages/pdf", { type: "local", path: "/base/packages/pdf" }],
    ["../shared/pdf", { type: "local", path: "/shared/pdf" }],
    ["/abs/pdf", { type: "local", path: "/abs/pdf" }],
    [
      "https://github.com/acme/tools/tree/v1.2.0",
      { type: "git", url: "https://github.com/acme/tools.git", ref: "v1.2.0" },
    ],
    [
      "https://github.com/acme/tools/tree/main/plugins/pdf",
      { type: "git", url: "https://github.com/acme/tools.git", ref: "main", path: "plugins/pdf" },
    ],
    [
      "https://git.example.com/team/tools.git",
      { type: "git", url: "https://git.example.com/team/tools.git" },
    ],
    [
      "https://git.example.com/team/tools.git#v2",
      { type: "git", url: "https://git.example.com/team/tools.git", ref: "v2" },
    ],
    [
      "git+https://example.com/tools#ref=abc123&path=plugins/pdf",
      { type: "git", url: "https://example.com/tools", ref: "abc123", path: "plugins/pdf" },
    ],
    [
      "git+file:///srv/repos/tools.git#main",
      { type: "git", url: "file:///srv/repos/tools.git", ref: "main" },
    ],
    ["git+../repos/tools.git", { type: "git", url: "/repos/tools.git" }],
    ["git@example.com:team/tools.git", { type: "git", url: "git@example.com:team/tools.git" }],
    [
      "ssh://git@example.com/team/tools.git#ref=v1",
      { type: "git", url: "ssh://git@example.com/team/tools.git", ref: "v1" },
    ],
    ["file:///srv/repos/tools.git", { type: "git", url: "file:///srv/repos/tools.git" }],
    [
      "https://example.com/pdf-1.0.0.tar.gz",
      { type: "archive", url: "https://example.com/pdf-1.0.0.tar.gz" },
    ],
    [
      "http://127.0.0.1:8080/pkg.tgz#path=sub/dir",
      { type: "archive", url: "http://127.0.0.1:8080/pkg.tgz", path: "sub/dir" },
    ],
  ])("%s", (text, source) => {
    expect(parseSourceUrl(text, "/base")).toEqual({ ok: true, source });
  });

  it.each([
    "",
    "https://example.com/page.html",
    "ftp://example.com/pkg.tar.gz",
    "https://example.com/pkg.tar.gz#path=../x",
    "git+https://example.com/tools#ref=-upload-pack=evil",
    "https://github.com/acme/tools/tree/main/../../x",
    "https://exa mple.com/x.tar.gz",
  ])("refuses %j", (text) => {
    expect(parseSourceUrl(text, "/base").ok).toBe(false);
  });
});

describe("each fetcher parses its own syntax", () => {
  const claims = (text: string) =>
    Object.entries(SOURCE_FETCHERS)
      .filter(([, fetcher]) => fetcher.parse(text, "/base") !== undefined)
      .map(([type]) => type);

  it.each([
    ["./skills", ["local"]],
    ["/abs/skills", ["local"]],
    ["git+https://example.com/r.git#main", ["git"]],
    // a folder's path is asked last and takes any text that is no URL
    ["git@example.com:o/r.git", ["git", "local"]],
    ["ssh://example.com/r.git", ["git"]],
    ["https://example.com/r.git//skills#v1", ["git"]],
    ["https://gitlab.com/o/r", ["git"]],
    ["https://example.com/pack.tar.gz#path=skills", ["archive"]],
    ["ext::sh -c x", ["git", "local"]],
    // a repository page and an archive of one host: the record's order gives it to the archive
    ["https://codeberg.org/o/r.tar.gz", ["archive", "git"]],
    ["https://example.com/page", []],
    ["ftp://example.com/x", []],
  ])("%s is taken by %j", (text, types) => {
    expect(claims(text)).toEqual(types);
  });

  it("asks them in the record's order, and names what each takes when none does", () => {
    expect(parseSourceUrl("https://codeberg.org/o/r.tar.gz", "/base")).toEqual({
      ok: true,
      source: { type: "archive", url: "https://codeberg.org/o/r.tar.gz" },
    });
    const none = parseSourceUrl("ftp://example.com/x", "/base");
    expect(none).toMatchObject({ ok: false, code: "source_invalid" });
    for (const fetcher of Object.values(SOURCE_FETCHERS))
      expect(none.ok ? "" : none.problem).toContain(fetcher.syntax);
  });
});

describe("an archive's pin and its scheme", () => {
  const pin = "ab".repeat(32);

  it.each([
    [`https://example.com/kit.tar.gz#sha256=${pin.toUpperCase()}`, { sha256: pin }],
    [`https://example.com/kit.zip#path=skills&sha256=${pin}`, { path: "skills", sha256: pin }],
    ["http://127.0.0.1:8080/kit.tar.gz", {}],
    ["http://localhost/kit.tar.gz", {}],
  ])("%s is an archive", (text, fields) => {
    expect(parseSourceUrl(text, "/base")).toEqual({
      ok: true,
      source: { type: "archive", url: text.split("#")[0], ...fields },
    });
  });

  it.each([
    ["https://example.com/kit.tar.gz#sha256=abc", "source_invalid"],
    ["https://example.com/kit.tar.gz#sha=abc", "source_ref_invalid"],
    ["http://example.com/kit.tar.gz", "source_insecure"],
    // a source is written to the lock and shown in messages: no credentials in it
    ["https://user:t0ken@example.com/kit.tar.gz", "source_invalid"],
    ["https://oauth2:t0ken@gitlab.com/team/skills.git", "source_invalid"],
    ["git+https://oauth2:t0ken@example.com/team/skills#main", "source_invalid"],
  ])("%s is refused with %s", (text, code) => {
    expect(parseSourceUrl(text, "/base")).toMatchObject({ ok: false, code });
  });

  it("never repeats the credentials of a URL it refuses", () => {
    for (const text of [
      "https://user:t0ken@example.com/kit.tar.gz",
      "https://oauth2:t0ken@gitlab.com/team/skills.git",
      "git+https://oauth2:t0ken@example.com/team/skills#main",
    ]) {
      const parsed = parseSourceUrl(text, "/base");
      expect(parsed.ok ? "" : parsed.problem).not.toContain("t0ken");
    }
  });
});

describe("mirror rules (issue 59, item 1)", () => {
  const mirrors = {
    rules: [
      { from: "https://github.com", to: "https://git.corp.example/github" },
      { from: "https://registry.npmjs.org/", to: "http://127.0.0.1:4873/" },
    ],
    only: { file: "/etc/skillshelf/policy.yaml" },
  };
  it("rewrites a URL the first rule starts at a boundary, and no other", () => {
    expect(mirrored("https://github.com/acme/skills.git", mirrors)?.url).toBe(
      "https://git.corp.example/github/acme/skills.git",
    );
    expect(mirrored("https://registry.npmjs.org/team-skills", mirrors)?.url).toBe(
      "http://127.0.0.1:4873/team-skills",
    );
    // a host that only starts like the rule's is another host
    expect(mirrored("https://github.com.evil.example/acme/skills.git", mirrors)).toBeUndefined();
  });

  it("refuses a fetch no rule rewrites when mirror-only is set, naming the rule that would", () => {
    expect(mirrorFor("https://github.com/acme/x.git", mirrors)?.to).toBe(
      "https://git.corp.example/github",
    );
    expect(() => mirrorFor("https://gitlab.com/acme/x.git", mirrors)).toThrow(
      expect.objectContaining({
        code: "mirror_required",
        details: expect.objectContaining({ from: "https://gitlab.com/" }),
      }),
    );
    expect(mirrorFor("https://gitlab.com/acme/x.git", { rules: mirrors.rules })).toBeUndefined();
  });
});
