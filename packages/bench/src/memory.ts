// Child process of the benchmark: load a generated tree once, one way, and report peak RSS.
import { rawParse } from "./baseline.js";
import { treeRoots } from "./generate.js";
import { loadTree } from "./measure.js";

const [variant, dir] = process.argv.slice(2);
if (dir === undefined || (variant !== "raw-parse" && variant !== "loadSkills")) {
  console.error("usage: node memory.js raw-parse|loadSkills <tree dir>");
  process.exit(2);
}
const roots = treeRoots(dir);
const result = variant === "raw-parse" ? rawParse(roots) : loadTree(roots);
const skills = result instanceof Map ? result.size : result.items.length;
console.log(JSON.stringify({ variant, skills, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
