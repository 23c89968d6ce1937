import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { digestTree, isSkillshelfError, type PackageSource } from "@skillshelf/core";
import { fetchedWithin, fetchSource, stageSource } from "@skillshelf/sources";
import {
  bareClone,
  gitEnv,
  gitRepo,
  link,
  packageTree,
  serve,
  tarGz,
  testdir,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { runSourcesChild } from "./_child.js";

async function stageError(
  source: PackageSource,
  options: Parameters<typeof stageSource>[1] = {},
): Promise<string | undefined> {
  try {
    (await stageSource(source, options)).release();
  } catch (error) {
    if (isSkillshelfError(error)) return error.code;
    throw error;
  }
  return undefined;
}

/** Staging folders left in `tempDir` (none, after any failure or release). */
const leftovers = (tempDir: string) => readdirSync(tempDir);

describe("stageSource from a local folder", () => {
  it("copies the folder without .git and digests it; release is idempotent", async () => {
    const source = testdir({ ...packageTree({ id: "pdf" }), ".git/HEAD": "ref: x\n" });
    const tempDir = testdir();
    const staged = await stageSource({ type: "local", path: source }, { tempDir });
    expect(readdirSync(staged.dir).sort()).toEqual(["plugin.json", "skills"]);
    expect(staged.digest).toBe(digestTree(staged.dir).digest);
    expect(staged.digest).toBe(digestTree(testdir(packageTree({ id: "pdf" }))).digest);
    staged.release();
    staged.release();
    expect(existsSync(staged.dir)).toBe(false);
    expect(leftovers(tempDir)).toEqual([]);
  });

  it.each<[string, () => string, string]>([
    ["a missing folder", () => join(testdir(), "absent"), "source_missing"],
    ["a file", () => join(testdir({ "a.md": "x" }), "a.md"), "source_missing"],
    [
      "an escaping symlink",
      () => testdir({ "plugin.json": "{}", "notes.md": link("/etc/hostname") }),
      "tree_link_escape",
    ],
  ])("refuses %s and leaves nothing", async (_name, make, code) => {
    const tempDir = testdir();
    expect(await stageError({ type: "local", path: make() }, { tempDir })).toBe(code);
    expect(leftovers(tempDir)).toEqual([]);
  });
});

describe("staging folders of a process that was killed", () => {
  it("are removed by the next process that stages in the same folder, and no other's are", async () => {
    const tempDir = testdir();
    const folder = testdir(packageTree({ id: "pdf" }));
    const killed = await runSourcesChild(
      `await sources.stageSource({ type: "local", path: args.folder }, { tempDir: args.tempDir });
      process.kill(process.pid, "SIGKILL");`,
      { folder, tempDir },
      { timeoutMs: 30_000 },
    );
    expect(killed.signal).toBe("SIGKILL");
    const orphans = leftovers(tempDir);
    expect(orphans).toHaveLength(1);
    // a folder of this (running) process, and one that only looks like a staging folder
    const mine = await stageSource({ type: "local", path: folder }, { tempDir });
    const unrelated = join(tempDir, "skillshelf-notes");
    writeFileSync(unrelated, "mine");
    const again = await stageSource({ type: "local", path: folder }, { tempDir });
    expect(leftovers(tempDir)).not.toContain(orphans[0]);
    expect(existsSync(mine.dir)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
    mine.release();
    again.release();
  });
});

describe("stageSource from git", () => {
  const tree = {
    ...packageTree({ id: "pdf" }),
    "tools/run.sh": { content: "#!/bin/sh\n", mode: 0o755 },
  };

  it("fetches the default branch of a local repository, a file:// URL and a bare repository", async () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree: { "old.md": "v1" }, tag: "v1" }, { tree }], env);
    const expected = digestTree(testdir({ ...tree, "old.md": "v1" })).digest;
    for (const url of [repo.path, pathToFileURL(repo.path).href, bareClone(repo.path, env)]) {
      const staged = await stageSource({ type: "git", url }, { env, tempDir: testdir() });
      expect({ url, digest: staged.digest, commit: staged.commit }).toEqual({
        url,
        digest: expected,
        commit: repo.commits[1],
      });
      expect(existsSync(join(staged.dir, ".git"))).toBe(false);
      expect(readdirSync(join(staged.dir, ".."))).toEqual(["package"]);
      staged.release();
    }
  });

  it("fetchSource stages the same tree, leaving a checkout's digest to whoever reads it", async () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree }], env);
    const fetched = await fetchSource({ type: "git", url: repo.path }, { env });
    expect(fetched.digest).toBeUndefined();
    expect(digestTree(fetched.dir).digest).toBe(digestTree(testdir(tree)).digest);
    fetched.release();
    // a copied folder was hashed as it was written
    const folder = testdir(tree);
    const copied = await fetchSource({ type: "local", path: folder });
    expect(copied.digest).toBe(digestTree(folder).digest);
    copied.release();
    expect(existsSync(copied.dir)).toBe(false);
  });

  it.each([
    ["more entries than allowed", { maxEntries: 3 }, undefined],
    ["more bytes than allowed in its commit", { maxUnpackedBytes: 64 * 1024 }, undefined],
    ["more bytes fetched than allowed", { maxDownloadBytes: 64 * 1024 }, undefined],
    ["more bytes fetched than allowed, at a commit", { maxDownloadBytes: 64 * 1024 }, 0],
  ])("refuses a repository with %s (source_too_large), writing nothing", async (_, limits, at) => {
    const env = gitEnv();
    // random bytes do not compress: what git fetches is as large as what it checks out
    const noise = randomBytes(256 * 1024);
    const repo = gitRepo([{ tree: { ...tree, "big.bin": noise, "c.md": "c", "d.md": "d" } }], env);
    const tempDir = testdir();
    const ref = at === undefined ? {} : { ref: repo.commits[at] as string };
    expect(
      await stageError({ type: "git", url: repo.path, ...ref }, { env, tempDir, limits }),
    ).toBe("source_too_large");
    expect(leftovers(tempDir)).toEqual([]);
    // within the limits it is fetched as always
    const staged = await stageSource({ type: "git", url: repo.path, ...ref }, { env, tempDir });
    expect(existsSync(join(staged.dir, "big.bin"))).toBe(true);
    staged.release();
  });

  it("fetches a tag, a commit and a subfolder", async () => {
    const env = gitEnv();
    const repo = gitRepo(
      [
        { tree: { "pkg/a.md": "one" }, tag: "v1" },
        { tree: { "pkg/a.md": "two", "pkg/b.md": "b" } },
      ],
      env,
    );
    const url = bareClone(repo.path, env);
    const tag = await stageSource({ type: "git", url, ref: "v1", path: "pkg" }, { env });
    expect(readdirSync(tag.dir)).toEqual(["a.md"]);
    expect(tag.commit).toBe(repo.commits[0]);
    const commit = await stageSource(
      { type: "git", url, ref: repo.commits[1] as string, path: "pkg" },
      { env },
    );
    expect(readFileSync(join(commit.dir, "a.md"), "utf8")).toBe("two");
    tag.release();
    commit.release();
  });

  it("fetches an annotated tag named by its full ref at the commit it tags", async () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree: { "a.md": "one" } }, { tree: { "a.md": "two" } }], env);
    execFileSync("git", ["tag", "-a", "-m", "release", "v1", repo.commits[0] as string], {
      cwd: repo.path,
      env,
    });
    const staged = await stageSource({ type: "git", url: repo.path, ref: "refs/tags/v1" }, { env });
    expect(staged.commit).toBe(repo.commits[0]);
    expect(readFileSync(join(staged.dir, "a.md"), "utf8")).toBe("one");
    staged.release();
  });

  it("refuses a commit whose signature does not verify, read beside its checkout, leaving nothing", async () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree: { "a.md": "one" } }], env);
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo.path, env, encoding: "utf8" });
    // the commit again, with an SSH signature header that signs nothing
    const [header, ...rest] = git("cat-file", "commit", "HEAD").split("\n\n");
    const signature = [
      "-----BEGIN SSH SIGNATURE-----",
      Buffer.from("not a signature").toString("base64"),
      "-----END SSH SIGNATURE-----",
    ].join("\n ");
    const forged = `${header}\ngpgsig ${signature}\n\n${rest.join("\n\n")}`;
    const hash = execFileSync("git", ["hash-object", "-t", "commit", "-w", "--stdin"], {
      cwd: repo.path,
      env,
      input: forged,
      encoding: "utf8",
    }).trim();
    git("update-ref", "refs/heads/main", hash);
    const tempDir = testdir();
    expect(await stageError({ type: "git", url: repo.path }, { env, tempDir })).toBe(
      "signature_invalid",
    );
    expect(leftovers(tempDir)).toEqual([]);
  });

  it("fetches a branch by name and HEAD, each at its commit", async () => {
    const env = gitEnv();
    const repo = gitRepo([{ tree: { "a.md": "one" } }, { tree: { "a.md": "two" } }], env);
    for (const ref of ["main", "HEAD"]) {
      const staged = await stageSource({ type: "git", url: repo.path, ref }, { env });
      expect({ ref, commit: staged.commit }).toEqual({ ref, commit: repo.commits[1] });
      expect(readdirSync(staged.dir)).toEqual(["a.md"]);
      staged.release();
    }
  });

  it("never runs hooks, even from a git template the user configured", async () => {
    const home = testdir();
    const env = gitEnv(home);
    const marker = join(home, "hook-ran");
    const template = testdir({
      "hooks/post-checkout": { content: `#!/bin/sh\ntouch ${marker}\n`, mode: 0o755 },
    });
    writeFileSync(
      join(home, ".gitconfig"),
      `[init]\n\ttemplateDir = ${template}\n[core]\n\thooksPath = ${join(template, "hooks")}\n`,
    );
    const repo = gitRepo([{ tree }], { ...env, HOME: testdir() });
    (await stageSource({ type: "git", url: repo.path }, { env })).release();
    expect(existsSync(marker)).toBe(false);
  });

  it.each<
    [
      string,
      (env: Record<string, string>) => { source: PackageSource; env: Record<string, string> },
      string,
    ]
  >([
    [
      "a repository that does not exist",
      (env) => ({ source: { type: "git", url: join(testdir(), "none.git") }, env }),
      "git_failed",
    ],
    [
      "a ref that does not exist",
      (env) => ({ source: { type: "git", url: gitRepo([{ tree }], env).path, ref: "v9" }, env }),
      "git_failed",
    ],
    [
      "a missing subfolder",
      (env) => ({ source: { type: "git", url: gitRepo([{ tree }], env).path, path: "nope" }, env }),
      "source_subfolder_missing",
    ],
    [
      "a symlink out of the repository",
      (env) => ({
        source: {
          type: "git",
          url: gitRepo([{ tree: { ...tree, "out.md": link("../../etc/hostname") } }], env).path,
        },
        env,
      }),
      "tree_link_escape",
    ],
    [
      "a symlink out of the subfolder into the rest of the repository",
      (env) => ({
        source: {
          type: "git",
          url: gitRepo(
            [{ tree: { "pkg/a.md": "a", "pkg/up.md": link("../b.md"), "b.md": "b" } }],
            env,
          ).path,
          path: "pkg",
        },
        env,
      }),
      "tree_link_escape",
    ],
    [
      "no git on PATH",
      (env) => ({
        source: { type: "git", url: "https://example.com/x.git" },
        env: { ...env, PATH: testdir() },
      }),
      "git_missing",
    ],
    [
      "an https URL needing credentials, without prompting",
      (env) => ({ source: { type: "git", url: "https://127.0.0.1:9/private.git" }, env }),
      "git_failed",
    ],
  ])("refuses %s and leaves nothing", async (_name, make, code) => {
    const tempDir = testdir();
    const { source, env } = make(gitEnv());
    expect(await stageError(source, { env, tempDir })).toBe(code);
    expect(leftovers(tempDir)).toEqual([]);
  });

  it("stops what git started with it: a helper it left running writes nothing after a timeout", async () => {
    const marker = join(testdir(), "marker");
    const script = `#!/bin/sh\n(while :; do echo x >> '${marker}'; sleep 0.02; done) &\nexec sleep 30\n`;
    const bin = testdir({ git: { content: script, mode: 0o755 } });
    chmodSync(join(bin, "git"), 0o755);
    expect(
      await stageError(
        { type: "git", url: "https://example.com/x.git" },
        { env: { PATH: `${bin}:${process.env.PATH}` }, timeoutMs: 300, tempDir: testdir() },
      ),
    ).toBe("git_timeout");
    const pause = () => new Promise((resolve) => setTimeout(resolve, 200));
    await pause();
    const size = statSync(marker).size;
    await pause();
    expect(statSync(marker).size).toBe(size);
  });

  it("gives up on a git that hangs, after the timeout", async () => {
    const bin = testdir({ git: { content: "#!/bin/sh\nexec sleep 30\n", mode: 0o755 } });
    chmodSync(join(bin, "git"), 0o755);
    const tempDir = testdir();
    expect(
      await stageError(
        { type: "git", url: "https://example.com/x.git" },
        { env: { PATH: `${bin}:${process.env.PATH}` }, timeoutMs: 300, tempDir },
      ),
    ).toBe("git_timeout");
    expect(leftovers(tempDir)).toEqual([]);
  });
});

describe("stageSource from an HTTP(S) archive", () => {
  const good = tarGz([
    { path: "pdf-1.0.0/", type: "directory" },
    { path: "pdf-1.0.0/plugin.json", content: '{"name":"pdf","version":"1.0.0"}' },
    {
      path: "pdf-1.0.0/skills/pdf/SKILL.md",
      content: "---\nname: pdf\ndescription: d\n---\nbody\n",
    },
    { path: "pdf-1.0.0/skills/pdf/run.sh", content: "#!/bin/sh\n", mode: 0o755 },
    { path: "pdf-1.0.0/skills/alias", type: "symlink", target: "pdf" },
    { path: `pdf-1.0.0/${"long/".repeat(30)}deep.md`, content: "deep" },
  ]);

  it("downloads, strips the single top folder and unpacks files, modes and links", async () => {
    const base = await serve({ "/pdf.tar.gz": good });
    const staged = await stageSource({ type: "archive", url: `${base}/pdf.tar.gz` });
    const expected = testdir({
      "plugin.json": '{"name":"pdf","version":"1.0.0"}',
      "skills/pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\nbody\n",
      "skills/pdf/run.sh": { content: "#!/bin/sh\n", mode: 0o755 },
      "skills/alias": link("pdf"),
      [`${"long/".repeat(30)}deep.md`]: "deep",
    });
    expect(staged.digest).toBe(digestTree(expected).digest);
    staged.release();
  });

  it("checks a pinned archive's sha256 on every download, before anything is unpacked", async () => {
    const base = await serve({ "/pdf.tar.gz": good });
    const url = `${base}/pdf.tar.gz`;
    const pin = createHash("sha256").update(good).digest("hex");
    const staged = await stageSource({ type: "archive", url, sha256: pin });
    staged.release();
    const tempDir = testdir();
    const wrong = "0".repeat(64);
    const refused = await stageSource({ type: "archive", url, sha256: wrong }, { tempDir }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isSkillshelfError(refused) ? [refused.code, refused.details] : refused).toEqual([
      "digest_mismatch",
      { url, expected: wrong, observed: pin },
    ]);
    expect(leftovers(tempDir)).toEqual([]);
  });

  it("selects a subfolder", async () => {
    const base = await serve({ "/pdf.tar.gz": good });
    const staged = await stageSource({
      type: "archive",
      url: `${base}/pdf.tar.gz`,
      path: "skills/pdf",
    });
    expect(readdirSync(staged.dir).sort()).toEqual(["SKILL.md", "run.sh"]);
    staged.release();
  });

  it.each<[string, Buffer, string]>([
    ["a .. member", tarGz([{ path: "pkg/../../evil.md", content: "x" }]), "archive_entry_refused"],
    [
      "an absolute member",
      tarGz([{ path: "/tmp/evil.md", content: "x" }]),
      "archive_entry_refused",
    ],
    [
      "an absolute member in a pax header",
      tarGz([{ path: "/tmp/evil.md", content: "x", pax: true }]),
      "archive_entry_refused",
    ],
    [
      "an absolute symlink",
      tarGz([
        { path: "pkg/a.md", content: "x" },
        { path: "pkg/link", type: "symlink", target: "/etc/passwd" },
      ]),
      "archive_entry_refused",
    ],
    [
      "a symlink that climbs out",
      tarGz([
        { path: "pkg/a.md", content: "x" },
        { path: "pkg/link", type: "symlink", target: "../../x" },
      ]),
      "archive_entry_refused",
    ],
    [
      "a member written through a symlink",
      tarGz([
        { path: "a/dir", type: "symlink", target: "." },
        { path: "a/dir/x.md", content: "x" },
      ]),
      "archive_entry_refused",
    ],
    [
      "a repeated member",
      tarGz([
        { path: "a.md", content: "x" },
        { path: "a.md", content: "y" },
      ]),
      "archive_entry_refused",
    ],
    [
      "a hard link",
      tarGz([
        { path: "a.md", content: "x" },
        { path: "b.md", type: "hardlink", target: "a.md" },
      ]),
      "archive_entry_refused",
    ],
    ["a FIFO", tarGz([{ path: "pipe", type: "fifo" }]), "archive_entry_refused"],
    [
      "too many members",
      tarGz(Array.from({ length: 30 }, (_, i) => ({ path: `f${i}.md`, content: "x" }))),
      "archive_too_many_entries",
    ],
    [
      "too much unpacked data",
      tarGz([{ path: "big.md", content: "x".repeat(300_000) }]),
      "archive_too_large",
    ],
    ["a file that is not gzip", Buffer.from("plain text"), "archive_invalid"],
  ])("refuses %s before writing anything", async (_name, archive, code) => {
    const base = await serve({ "/a.tar.gz": archive });
    const tempDir = testdir();
    expect(
      await stageError(
        { type: "archive", url: `${base}/a.tar.gz` },
        { tempDir, limits: { maxEntries: 20, maxUnpackedBytes: 200_000 } },
      ),
    ).toBe(code);
    expect(leftovers(tempDir)).toEqual([]);
  });

  it("refuses a download past its limit, whether declared or streamed", async () => {
    const base = await serve({
      "/declared.tar.gz": Buffer.alloc(5000),
      "/streamed.tar.gz": (_request, response) => {
        response.writeHead(200);
        const chunk = Buffer.alloc(1024);
        const timer = setInterval(() => response.write(chunk), 1);
        response.on("close", () => clearInterval(timer));
      },
    });
    const limits = { maxDownloadBytes: 4096 };
    expect(await stageError({ type: "archive", url: `${base}/declared.tar.gz` }, { limits })).toBe(
      "archive_too_large",
    );
    expect(await stageError({ type: "archive", url: `${base}/streamed.tar.gz` }, { limits })).toBe(
      "archive_too_large",
    );
  });

  it("reports a missing archive, a refused connection and a server that never answers", async () => {
    const base = await serve({ "/slow.tar.gz": () => {} });
    expect(await stageError({ type: "archive", url: `${base}/missing.tar.gz` })).toBe(
      "download_failed",
    );
    expect(await stageError({ type: "archive", url: "http://127.0.0.1:9/a.tar.gz" })).toBe(
      "download_failed",
    );
    expect(
      await stageError({ type: "archive", url: `${base}/slow.tar.gz` }, { timeoutMs: 200 }),
    ).toBe("download_timeout");
  });
});

describe("a fetch's timeout (bad input: a server that never answers)", () => {
  it("fires however often memory is collected meanwhile", async () => {
    // Node 20 may collect an AbortSignal.timeout joined by AbortSignal.any before it fires
    // (nodejs/node#57736): collected every 10 ms, the fetch must still time out
    const run = await runSourcesChild(
      `const http = await import("node:http");
      const server = http.createServer(() => {});
      await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
      const collecting = setInterval(() => globalThis.gc(), 10);
      const url = "http://127.0.0.1:" + server.address().port + "/never.tar.gz";
      const code = await sources.stageSource({ type: "archive", url }, { timeoutMs: 300 }).then(
        () => "staged",
        (error) => error.code,
      );
      clearInterval(collecting);
      server.closeAllConnections();
      server.close();
      console.log(code);`,
      {},
      { timeoutMs: 60_000, env: { NODE_OPTIONS: "--expose-gc" } },
    );
    expect(run.stdout.trim(), run.stderr).toBe("download_timeout");
  });
});

describe("stageSource from a .zip", () => {
  /** A zip of `members` made with yazl; `patch` then rewrites bytes yazl would refuse to write. */
  async function zip(
    members: readonly { path: string; content?: string; mode?: number; folder?: boolean }[],
    patch?: [string, string],
  ): Promise<Buffer> {
    const file = new ZipFile();
    for (const member of members)
      if (member.folder === true) file.addEmptyDirectory(member.path);
      else
        file.addBuffer(Buffer.from(member.content ?? ""), member.path, {
          mode: member.mode ?? 0o100644,
        });
    file.end();
    const chunks: Buffer[] = [];
    for await (const chunk of file.outputStream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (patch === undefined) return bytes;
    const [from, to] = patch;
    return Buffer.from(bytes.toString("latin1").replaceAll(from, to), "latin1");
  }

  it("unpacks files, modes and links, strips the single top folder, selects a subfolder", async () => {
    const archive = await zip([
      { path: "pdf-1.0.0/", folder: true },
      { path: "pdf-1.0.0/plugin.json", content: '{"name":"pdf","version":"1.0.0"}' },
      { path: "pdf-1.0.0/skills/pdf/SKILL.md", content: "---\nname: pdf\ndescription: d\n---\n" },
      { path: "pdf-1.0.0/skills/pdf/run.sh", content: "#!/bin/sh\n", mode: 0o100755 },
      { path: "pdf-1.0.0/skills/alias", content: "pdf", mode: 0o120777 },
    ]);
    const base = await serve({ "/pdf.zip": archive });
    const staged = await stageSource({ type: "archive", url: `${base}/pdf.zip` });
    const expected = testdir({
      "plugin.json": '{"name":"pdf","version":"1.0.0"}',
      "skills/pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\n",
      "skills/pdf/run.sh": { content: "#!/bin/sh\n", mode: 0o755 },
      "skills/alias": link("pdf"),
    });
    expect(staged.digest).toBe(digestTree(expected).digest);
    staged.release();
    const sub = await stageSource({ type: "archive", url: `${base}/pdf.zip`, path: "skills/pdf" });
    expect(readdirSync(sub.dir).sort()).toEqual(["SKILL.md", "run.sh"]);
    sub.release();
  });

  it.each<[string, () => Promise<Buffer>, string]>([
    [
      "a .. member",
      () => zip([{ path: "pkg/XX/XX/evil.md" }], ["XX", ".."]),
      "archive_entry_refused",
    ],
    [
      "an absolute member",
      () => zip([{ path: "Xtmp/evil.md" }], ["Xtmp", "/tmp"]),
      "archive_entry_refused",
    ],
    [
      "a symlink that climbs out",
      () => zip([{ path: "pkg/a.md" }, { path: "pkg/link", content: "../../x", mode: 0o120777 }]),
      "archive_entry_refused",
    ],
    [
      "an absolute symlink",
      () => zip([{ path: "pkg/link", content: "/etc/passwd", mode: 0o120777 }]),
      "archive_entry_refused",
    ],
    ["a FIFO", () => zip([{ path: "pipe", mode: 0o010644 }]), "archive_entry_refused"],
    [
      "too many members",
      () => zip(Array.from({ length: 30 }, (_, i) => ({ path: `f${i}.md`, content: "x" }))),
      "archive_too_many_entries",
    ],
    [
      "too much unpacked data",
      () => zip([{ path: "big.md", content: "x".repeat(300_000) }]),
      "archive_too_large",
    ],
    ["a file that is not a zip", async () => Buffer.from("plain text"), "archive_invalid"],
  ])("refuses %s before writing anything", async (_name, make, code) => {
    const base = await serve({ "/a.zip": await make() });
    const tempDir = testdir();
    expect(
      await stageError(
        { type: "archive", url: `${base}/a.zip` },
        { tempDir, limits: { maxEntries: 20, maxUnpackedBytes: 200_000 } },
      ),
    ).toBe(code);
    expect(leftovers(tempDir)).toEqual([]);
  });
});

describe("one folder of a fetch already made", () => {
  const whole = (signers?: Record<string, string>) => ({
    dir: testdir({
      "skills/alpha/SKILL.md": "alpha",
      "skills/alpha/refs/api.md": "api",
      "skills/beta/SKILL.md": "beta",
      "skills/out": link("../../outside"),
    }),
    source: { type: "git", url: "https://example.com/r.git", ref: "main" } as PackageSource,
    commit: "c".repeat(40),
    ...(signers === undefined ? {} : { signers }),
    release: () => undefined,
  });
  const source = (path: string): PackageSource => ({
    type: "git",
    url: "https://example.com/r.git",
    ref: "main",
    path,
  });

  it("is that folder with the fetch's commit, and the signers that sign it as seen from it", () => {
    const fetched = fetchedWithin(
      whole({ ".": "ssh:top", "skills/alpha": "ssh:alpha", "skills/alpha/refs": "ssh:refs" }),
      "skills/alpha",
      source("skills/alpha"),
    );
    expect(readFileSync(join(fetched.dir, "SKILL.md"), "utf8")).toBe("alpha");
    expect(fetched.commit).toBe("c".repeat(40));
    expect(fetched.signers).toEqual({ ".": "ssh:alpha", refs: "ssh:refs" });
    expect(fetched.source).toEqual(source("skills/alpha"));
    // a folder only the whole fetch's signer signs is signed by it
    expect(
      fetchedWithin(whole({ ".": "ssh:top" }), "skills/beta", source("skills/beta")).signers,
    ).toEqual({
      ".": "ssh:top",
    });
  });

  it("is refused when missing, a file, or a link out of the fetch", () => {
    const codeOf = (path: string) => {
      try {
        fetchedWithin(whole(), path, source(path));
      } catch (error) {
        return isSkillshelfError(error) ? error.code : "uncoded";
      }
      return "none";
    };
    expect(codeOf("skills/gamma")).toBe("source_subfolder_missing");
    expect(codeOf("skills/beta/SKILL.md")).toBe("source_subfolder_missing");
    expect(codeOf("skills/out")).toBe("tree_link_escape");
  });
});
