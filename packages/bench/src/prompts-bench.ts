import { join } from "node:path";
import { loadPromptTemplates, substituteArguments } from "@skillshelf/prompts-loader";
import { rawPromptParse } from "./baseline.js";
import { corpusPromptFiles } from "./corpus-tree.js";
import { largeTemplate, writePromptTree } from "./generate-prompts.js";
import { type BenchOptions, median, ratioRows, timeSideBySide, verdict } from "./measure.js";

const SIZES = [1, 4, 16] as const;
const MIB = 1_048_576;

/**
 * The prompts benchmark: load the corpus's real templates, repeated under new names, beside the raw read-and-parse baseline, then
 * expand templates of 1, 4 and 16 MiB (10,000, 40,000 and 160,000 placeholders), and the same
 * sizes of hostile unclosed `${` openers, to show that expansion stays linear. (Below a megabyte
 * CPU caches dominate the ratios, even for a plain split-and-join.)
 */
export function runPromptsBench(options: BenchOptions): string {
  const count = Math.max(1, Math.round(options.count / 2));
  const { rounds } = options;
  const tree = writePromptTree(join(options.workDir, `prompts-${count}`), count);
  const { roots } = tree;
  const load = () =>
    loadPromptTemplates({ cwd: "/nonexistent", home: "/nonexistent", env: {}, roots });
  const loaded = load();
  const raw = rawPromptParse(roots);
  const sameNames =
    loaded.items.length === raw.size && loaded.items.every((template) => raw.has(template.name));
  if (!sameNames)
    throw new Error("bench: loadPromptTemplates and the baseline disagree on the templates");

  console.log(`bench: timing prompts, ${rounds} rounds side by side`);
  const loadTimes = timeSideBySide(
    { "read-and-parse": () => rawPromptParse(roots), loadPromptTemplates: load },
    rounds,
  );
  const invocation = { args: ["target", "mode", "a", "b", "c"], raw: "target mode a b c" };
  const templates = SIZES.flatMap((size) => [
    [
      `${size}× (${size} MiB, ${10_000 * size} placeholders)`,
      largeTemplate(MIB * size, 10_000 * size),
    ] as const,
    [`${size}× hostile (${size} MiB of unclosed \${)`, largeTemplate(MIB * size, 0, true)] as const,
  ]);
  const expandTimes = timeSideBySide(
    Object.fromEntries(
      templates.map(([label, template]) => [
        label,
        () => substituteArguments(template, invocation),
      ]),
    ),
    rounds,
  );
  const growth = (kind: "plain" | "hostile") => {
    const labels = templates
      .map(([label]) => label)
      .filter((label) => label.includes("hostile") === (kind === "hostile"));
    const times = labels.map((label) => median(expandTimes[label] ?? []));
    return times.map((ms) => ms / (times[0] as number));
  };
  const [, plain4, plain16] = growth("plain");
  const [, hostile4, hostile16] = growth("hostile");
  const linear = (plain16 as number) < 32 && (hostile16 as number) < 32;
  return [
    "## Prompt templates",
    "",
    `${loaded.items.length} real templates in 2 roots (the corpus's ${corpusPromptFiles().length} whose frontmatter \`yaml\` reads, in turn under new names: ${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB; every fifth in a nested folder), median of ${rounds} rounds; both sides found the same templates: ${sameNames ? "yes" : "no"}.`,
    "",
    "| variant | ms | µs per template | vs read-and-parse |",
    "|---|---|---|---|",
    ...ratioRows(loadTimes, "read-and-parse", loaded.items.length),
    "",
    "| expansion (mean of 5 calls, median of the rounds) | ms |",
    "|---|---|",
    ...templates.map(([label]) => `| ${label} | ${median(expandTimes[label] ?? []).toFixed(2)} |`),
    "",
    `Growth from 1× to 4× and 16×: ${(plain4 as number).toFixed(1)}× and ${(plain16 as number).toFixed(1)}× (hostile: ${(hostile4 as number).toFixed(1)}× and ${(hostile16 as number).toFixed(1)}×); linear would be 4× and 16×. Linear: ${verdict(linear)}.`,
  ].join("\n");
}
