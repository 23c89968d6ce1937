#!/usr/bin/env node
import { join } from "node:path";
import { loadBundle } from "./_code-cache.js";
import { VERSION } from "./_version.js";

const argv = process.argv.slice(2);
if (argv[0] === "--version" || argv[0] === "-v") {
  // the version needs nothing of the command line: answered before the bundle is read
  process.stdout.write(`${VERSION}\n`);
} else {
  // built as CommonJS (dist/cli.cjs): Node starts a CommonJS entry without its ES module loader;
  // the bundle sits beside it, so this file's own `require` resolves as the bundle's would
  const { exports, stamp } = loadBundle(
    join(__dirname, "skillshelf.cjs"),
    join(__dirname, "skillshelf.cache"),
    require,
  );
  // exit once the command is done: left to itself, Node first waits for V8's background work (a
  // compile or a collection the run set going), up to 20 ms that change nothing
  exports.run(argv, stamp).then((status) => process.exit(status));
}
