import { gzipSync } from "node:zlib";
import { packTar } from "@skillshelf/sources";

/**
 * A `.tar.gz` of the folder `dir` (a staged copy, its links already kept inside), the same bytes
 * for the same tree wherever and whenever it is made (`packTar`), with a gzip header without a
 * time. So publishing a tree again gives the digest it had.
 */
export async function packTree(dir: string): Promise<Buffer> {
  return gzipSync(await packTar({ trees: [{ prefix: "", dir }] }), { level: 9 });
}
