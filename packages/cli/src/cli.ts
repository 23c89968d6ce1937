#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { loadBundle } from "./_code-cache.js";

const path = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const { exports } = loadBundle(path("./skillshelf.cjs"), path("./skillshelf.cache"));
process.exitCode = await exports.run(process.argv.slice(2));
