import { packTarGz } from "@skillshelf/sources";

/**
 * A `.tar.gz` of the folder `dir` (a staged copy, its links already kept inside), the same bytes
 * for the same tree wherever and whenever it is made (`packTarGz`), with a gzip header without a
 * time. So publishing a tree again gives the digest it had.
 */
export async function packTree(dir: string): Promise<Buffer> {
  return packTarGz({ trees: [{ prefix: "", dir }] }, 9);
}
