import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { pack } from "tar-stream";

/**
 * A `.tar.gz` of the folder `dir` (a staged copy, its links already kept inside), the same bytes
 * for the same tree wherever and whenever it is made: members in code-unit order of their paths,
 * no times, owners or permission bits beyond the executable one (what the tree digest binds), and
 * a gzip header without a time. So publishing a tree again gives the digest it had.
 */
export async function packTree(dir: string): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on("data", (chunk: unknown) => {
    chunks.push(chunk as Buffer);
  });
  const ended = new Promise<void>((resolve, reject) => {
    archive.on("end", resolve);
    archive.on("error", reject);
  });
  for (const path of treePaths(dir)) {
    const stat = lstatSync(join(dir, path));
    const header = { name: path, mtime: new Date(0), uid: 0, gid: 0, uname: "", gname: "" };
    if (stat.isDirectory()) archive.entry({ ...header, type: "directory", mode: 0o755 });
    else if (stat.isSymbolicLink())
      archive.entry({ ...header, type: "symlink", linkname: readlinkSync(join(dir, path)) });
    else
      archive.entry(
        { ...header, mode: (stat.mode & 0o111) === 0 ? 0o644 : 0o755 },
        readFileSync(join(dir, path)),
      );
  }
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks), { level: 9 });
}

/** Every path below `dir`, `/`-separated, a folder before what it holds, in code-unit order. */
function treePaths(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .map((entry) => (prefix === "" ? entry.name : `${prefix}/${entry.name}`))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap((path) =>
      lstatSync(join(dir, path)).isDirectory() ? [path, ...treePaths(dir, path)] : [path],
    );
}
