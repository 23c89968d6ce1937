import { processIo } from "./io.js";
import { main } from "./main.js";

/*
 * What dist/skillshelf.cjs, the one bundle the bin runs, exports: the command line as the process
 * runs it, and `main` for the build's training run (scripts/code-cache.ts), which runs commands in
 * its own process to fill the code cache shipped beside the bundle.
 */

export { main };

/**
 * Run the command line on this process's arguments and streams; returns the exit status once
 * what it wrote has left. `build` is the bundle's stamp (what read commands tag what they keep
 * between runs with).
 */
export async function run(argv: readonly string[], build?: string): Promise<number> {
  const io = processIo(build);
  const status = await main(argv, io);
  await io.settled();
  return status;
}
