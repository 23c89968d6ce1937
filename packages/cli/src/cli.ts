#!/usr/bin/env node
import { join } from "node:path";
import { loadBundle } from "./_code-cache.js";

// built as CommonJS (dist/cli.cjs): Node starts a CommonJS entry without its ES module loader
const { exports } = loadBundle(
  join(__dirname, "skillshelf.cjs"),
  join(__dirname, "skillshelf.cache"),
);
exports.run(process.argv.slice(2)).then((status) => {
  process.exitCode = status;
  // exit once what was written has left: left to itself, Node first waits for V8's background
  // work (a compile or a collection the run set going), up to 20 ms that change nothing
  afterFlush(process.stdout, () => afterFlush(process.stderr, () => process.exit(status)));
});

function afterFlush(stream: NodeJS.WriteStream, then: () => void): void {
  stream.write("", then);
}
