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
});
