import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Tree, testdir, writeTree } from "@skillshelf/test-utils";
import { onTestFinished } from "vitest";

/** One member of a test archive. */
export interface TarMember {
  readonly path: string;
  /** `pax` and `globalPax` are raw pax headers (`x`, `g`) holding `records`. */
  readonly type?: "file" | "directory" | "symlink" | "hardlink" | "fifo" | "pax" | "globalPax";
  readonly content?: string;
  readonly mode?: number;
  readonly target?: string;
  /** Write the path in a pax header instead of the ustar name field. */
  readonly pax?: boolean;
  /** `key=value` records of a `pax` or `globalPax` member, each framed with its length. */
  readonly records?: readonly string[];
  /** The header's 12-byte size field as written, instead of the octal size. */
  readonly sizeField?: string;
}

const TYPE_FLAG = {
  file: "0",
  directory: "5",
  symlink: "2",
  hardlink: "1",
  fifo: "6",
  pax: "x",
  globalPax: "g",
} as const;

/** A gzipped tar holding exactly `members`, hostile ones included. */
export function tarGz(members: readonly TarMember[]): Buffer {
  return gzipSync(tarBytes(members));
}

/** The uncompressed tar of `tarGz`: 512-byte blocks, each header on a block boundary. */
export function tarBytes(members: readonly TarMember[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const content =
      member.records === undefined
        ? Buffer.from(member.content ?? "")
        : Buffer.concat(
            member.records.map((record) => {
              const [key = "", ...value] = record.split("=");
              return paxRecord(key, value.join("="));
            }),
          );
    if (member.pax === true || Buffer.byteLength(member.path) > 100) {
      const record = paxRecord("path", member.path);
      blocks.push(header({ name: "PaxHeader", type: "x", size: record.length }), pad(record));
    }
    const type = member.type ?? "file";
    const hasData = type === "file" || type === "pax" || type === "globalPax";
    blocks.push(
      header({
        name: member.pax === true ? "ignored" : member.path.slice(0, 100),
        type: TYPE_FLAG[type],
        size: hasData ? content.length : 0,
        mode: member.mode ?? (type === "directory" ? 0o755 : 0o644),
        target: member.target ?? "",
        sizeField: member.sizeField,
      }),
      hasData ? pad(content) : Buffer.alloc(0),
    );
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** Write a correct checksum into the 512-byte header block starting at `offset`. */
export function fixChecksum(tar: Buffer, offset: number): void {
  const block = tar.subarray(offset, offset + 512);
  block.write("        ", 148);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148);
}

/** A loopback HTTP server answering from `routes`, closed when the test ends; returns its base URL. */
export async function serve(routes: Record<string, Buffer | RequestListener>): Promise<string> {
  const server = createServer((request, response) => {
    const route = routes[request.url ?? ""];
    if (route === undefined) {
      response.writeHead(404).end();
    } else if (Buffer.isBuffer(route)) {
      response
        .writeHead(200, { "content-type": "application/gzip", "content-length": route.length })
        .end(route);
    } else route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  onTestFinished(() => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Environment for git runs in tests: a private HOME, fixed identity, no system config. */
export function gitEnv(home: string = testdir()): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "test@example.com",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "test@example.com",
  };
}

/** A git repository made by the test: one commit per tree, tagged as given; returns its path. */
export function gitRepo(
  commits: ReadonlyArray<{ tree: Tree; tag?: string }>,
  env: Record<string, string> = gitEnv(),
): { path: string; commits: string[] } {
  const path = join(testdir(), "repo");
  mkdirSync(path);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: path, env, encoding: "utf8" }).trim();
  git("init", "--quiet", "--initial-branch=main");
  const hashes: string[] = [];
  for (const commit of commits) {
    writeTree(path, commit.tree);
    git("add", "--all");
    git("commit", "--quiet", "--allow-empty", "-m", `commit ${hashes.length + 1}`);
    if (commit.tag !== undefined) git("tag", commit.tag);
    hashes.push(git("rev-parse", "HEAD"));
  }
  return { path, commits: hashes };
}

/** A bare clone of a repository, as a server would hold it. */
export function bareClone(repo: string, env: Record<string, string> = gitEnv()): string {
  const bare = join(testdir(), "bare.git");
  execFileSync("git", ["clone", "--quiet", "--bare", repo, bare], { env });
  return bare;
}

// --- internal ---

function header(fields: {
  name: string;
  type: string;
  size: number;
  mode?: number;
  target?: string;
  sizeField?: string | undefined;
}): Buffer {
  const block = Buffer.alloc(512);
  block.write(fields.name, 0, 100, "utf8");
  block.write(octal(fields.mode ?? 0o644, 7), 100);
  block.write(octal(0, 7), 108);
  block.write(octal(0, 7), 116);
  block.write(fields.sizeField ?? octal(fields.size, 11), 124, 12, "latin1");
  block.write(octal(1_700_000_000, 11), 136);
  block.write("        ", 148);
  block.write(fields.type, 156);
  block.write(fields.target ?? "", 157, 100, "utf8");
  block.write("ustar\u000000", 257);
  fixChecksum(block, 0);
  return block;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width, "0")}\u0000`;
}

function pad(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length)
    length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`);
}
