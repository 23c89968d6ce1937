#!/usr/bin/env node
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { loadBundle } from "./_code-cache.js";

// the audit's grammars are WebAssembly of a few MB: V8's optimizing tier recompiles them in the
// background, and a command then waits seconds at exit for work that could not pay back in a
// run this short; its baseline compiler alone parses as fast for what one command reads
setFlagsFromString("--liftoff-only");

// built as CommonJS (dist/cli.cjs): Node starts a CommonJS entry without its ES module loader;
// the bundle sits beside it, so this file's own `require` resolves as the bundle's would
const { exports, stamp } = loadBundle(
  join(__dirname, "skillshelf.cjs"),
  join(__dirname, "skillshelf.cache"),
  require,
);
// exit once the command is done: left to itself, Node first waits for V8's background work (a
// compile or a collection the run set going), up to 20 ms that change nothing
exports.run(process.argv.slice(2), stamp).then((status) => process.exit(status));
