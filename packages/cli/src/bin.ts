import { processIo } from "./io.js";
import { main } from "./main.js";

/*
 * What dist/skillshelf.cjs, the one bundle the bin runs, exports: the command line as the process
 * runs it, and `main` for the build's training run (scripts/code-cache.ts), which runs commands in
 * its own process to fill the code cache shipped beside the bundle.
 */

export { main };

/** Run the command line on this process's arguments and streams; returns the exit status. */
export function run(argv: readonly string[]): Promise<number> {
  // a reader that stops early (`skillshelf list | head -1`) is not an error
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return main(argv, processIo());
}
