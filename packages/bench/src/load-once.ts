// Child process of the benchmark: load one folder of skills once, cold, as a fresh process would.
import { loadTree } from "./measure.js";

const [dir] = process.argv.slice(2);
if (dir === undefined) {
  console.error("usage: node load-once.js <skills folder>");
  process.exit(2);
}
const { items, diagnostics } = loadTree([
  {
    path: dir,
    scope: "user",
    source: "skillshelf",
    origin: "skillshelf-user",
    precedence: 30,
    trust: "trusted",
    containment: dir,
  },
]);
console.log(JSON.stringify({ skills: items.length, diagnostics: diagnostics.length }));
