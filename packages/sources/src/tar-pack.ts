import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * A gzipped tar of `files` (in the order given) then each of `trees` under its `prefix` (`""`: at
 * the top), the same bytes for the same content wherever and whenever it is made: a tree's
 * members in code-unit order of their paths, no times, owners or permission bits beyond the
 * executable one (what a tree digest binds), links kept as links; a gzip header without a name or
 * time, at `level`.
 */
export async function packTarGz(
  content: {
    readonly files?: readonly { readonly name: string; readonly data: Buffer | string }[];
    readonly trees: readonly { readonly prefix: string; readonly dir: string }[];
  },
  level = 6,
): Promise<Buffer> {
  const { pack } = await import("tar-stream");
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on("data", (chunk: unknown) => {
    chunks.push(chunk as Buffer);
  });
  const ended = new Promise<void>((resolve, reject) => {
    archive.on("end", resolve);
    archive.on("error", reject);
  });
  const header = { mtime: new Date(0), uid: 0, gid: 0, uname: "", gname: "" };
  for (const file of content.files ?? [])
    archive.entry({ ...header, name: file.name, mode: 0o644 }, file.data);
  for (const { prefix, dir } of content.trees)
    for (const path of treePaths(dir)) {
      const name = prefix === "" ? path : `${prefix}/${path}`;
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) archive.entry({ ...header, name, type: "directory", mode: 0o755 });
      else if (stat.isSymbolicLink())
        archive.entry({
          ...header,
          name,
          type: "symlink",
          linkname: readlinkSync(join(dir, path)),
        });
      else
        archive.entry(
          { ...header, name, mode: (stat.mode & 0o111) === 0 ? 0o644 : 0o755 },
          readFileSync(join(dir, path)),
        );
    }
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks), { level });
}

// --- internal ---

/** Every path below `dir`, `/`-separated, a folder before what it holds, in code-unit order. */
function treePaths(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .map((entry) => (prefix === "" ? entry.name : `${prefix}/${entry.name}`))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap((path) =>
      lstatSync(join(dir, path)).isDirectory() ? [path, ...treePaths(dir, path)] : [path],
    );
}
