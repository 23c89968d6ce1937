import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readIndex } from "@skillshelf/sources";
import { corpusDescriptions } from "./corpus-tree.js";
import { type BenchOptions, median, timeSideBySide, verdict } from "./measure.js";

const SIZES = [2_500, 5_000, 10_000] as const;

/**
 * The index benchmark: `readIndex` over a `library.yaml` and a `marketplace.json` of 2,500, 5,000
 * and 10,000 rows, timed side by side. Reading must be linear in the rows: the cost per row at
 * 10,000 rows at most 1.5× the cost at 2,500, leaving room for noise (a quadratic step, like the
 * YAML parser's own repeated-key check, makes it 4×).
 */
export function runIndexBench(options: BenchOptions): string {
  const dir = join(options.workDir, "indexes");
  mkdirSync(dir, { recursive: true });
  const variants: Record<string, () => unknown> = {};
  const descriptions = corpusDescriptions();
  const description = (index: number) => descriptions[index % descriptions.length] as string;
  for (const size of SIZES) {
    const yaml = join(dir, `library-${size}.yaml`);
    const json = join(dir, `marketplace-${size}.json`);
    writeFileSync(yaml, libraryYaml(size, description));
    writeFileSync(json, marketplaceJson(size, description));
    variants[`library.yaml, ${size} rows`] = () => checkedRead(yaml, size);
    variants[`marketplace.json, ${size} rows`] = () => checkedRead(json, size);
  }
  console.log(`bench: timing index reads, ${options.rounds} rounds side by side`);
  const times = timeSideBySide(variants, options.rounds);
  const ms = (label: string) => median(times[label] ?? []);
  const rows = Object.keys(variants).map((label) => {
    const rowsIn = Number(/(\d+) rows/.exec(label)?.[1]);
    return `| ${label} | ${ms(label).toFixed(1)} | ${((ms(label) * 1000) / rowsIn).toFixed(1)} |`;
  });
  const growth = (format: string) =>
    ms(`${format}, 10000 rows`) / 10_000 / (ms(`${format}, 2500 rows`) / 2_500);
  const yamlGrowth = growth("library.yaml");
  const jsonGrowth = growth("marketplace.json");
  const yamlToJson = ms("library.yaml, 10000 rows") / ms("marketplace.json, 10000 rows");
  return [
    "## Package indexes",
    "",
    `Rows of eight keys each (kind, name, description, source, version, digest, category, triggers), each description one of the corpus's ${descriptions.length} real ones in turn (double-quoted in library.yaml); median of ${options.rounds} rounds.`,
    "",
    "| index | ms | µs per row |",
    "|---|---|---|",
    ...rows,
    "",
    `Cost per row at 10,000 rows against 2,500: library.yaml ${yamlGrowth.toFixed(2)}×, marketplace.json ${jsonGrowth.toFixed(2)}× (linear is 1×, quadratic 4×).`,
    `Target: linear, at most 1.5× per row: ${verdict(yamlGrowth <= 1.5 && jsonGrowth <= 1.5)}.`,
    `library.yaml against marketplace.json at 10,000 rows: ${yamlToJson.toFixed(2)}×. Target (issue 31): at most 3×: ${verdict(yamlToJson <= 3)}.`,
  ].join("\n");
}

// --- internal ---

function checkedRead(path: string, size: number): void {
  const index = readIndex(path);
  if (index.rows.length !== size || index.diagnostics.length > 0)
    throw new Error(`${path}: read ${index.rows.length} rows of ${size}`);
}

function libraryYaml(size: number, description: (index: number) => string): string {
  return Array.from({ length: size }, (_, index) =>
    [
      "- kind: skill",
      `  name: skill-${index}`,
      `  description: ${JSON.stringify(description(index))}`,
      `  sourceUrl: ./skills/skill-${index}`,
      `  version: 1.0.${index}`,
      `  sha256: ${index.toString(16).padStart(64, "a")}`,
      "  category: review",
      `  triggers: [review, skill-${index}]`,
      "",
    ].join("\n"),
  ).join("");
}

function marketplaceJson(size: number, description: (index: number) => string): string {
  return JSON.stringify({
    name: "bench",
    owner: { name: "bench" },
    plugins: Array.from({ length: size }, (_, index) => ({
      name: `plugin-${index}`,
      description: description(index),
      source: `./plugins/plugin-${index}`,
      version: `1.0.${index}`,
      category: "review",
      keywords: ["review", `plugin-${index}`],
      author: { name: "bench" },
      license: "MIT",
    })),
  });
}
