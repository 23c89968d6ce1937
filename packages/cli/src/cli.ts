#!/usr/bin/env node
import { processIo } from "./io.js";
import { main } from "./main.js";

// a reader that stops early (`skillshelf list | head -1`) is not an error
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv.slice(2), processIo());
