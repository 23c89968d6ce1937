import { buildCatalogView, type CatalogInput } from "@skillshelf/catalog-view";
import { corpusDescriptions } from "./corpus-tree.js";
import { type BenchOptions, median, timeSideBySide, verdict } from "./measure.js";

const SIZES = [1_000, 10_000, 100_000] as const;
const BUDGET = 8_192;

/**
 * The catalog benchmark: `buildCatalogView` over 1,000, 10,000 and 100,000 rows, with an 8 KiB
 * budget and with none, timed side by side; the target is under 10 ms at 10,000 rows with the
 * budget, and growth between sizes no worse than n·log n.
 */
export function runCatalogBench(options: BenchOptions): string {
  const descriptions = corpusDescriptions();
  const catalogs = new Map(SIZES.map((size) => [size, catalogOf(size, descriptions)]));
  console.log(`bench: timing catalog views, ${options.rounds} rounds side by side`);
  const variants: Record<string, () => unknown> = {};
  for (const size of SIZES) {
    const catalog = catalogs.get(size) as CatalogInput;
    variants[`${size} rows, 8 KiB budget`] = () => buildCatalogView({ ...catalog, budget: BUDGET });
    variants[`${size} rows, no budget`] = () => buildCatalogView(catalog);
  }
  const times = timeSideBySide(variants, options.rounds, 3);
  const ms = (label: string) => median(times[label] ?? []);
  const rows = Object.keys(variants).map((label) => `| ${label} | ${ms(label).toFixed(2)} |`);
  const growth = (kind: string) => {
    const [small, medium, large] = SIZES.map((size) => ms(`${size} rows, ${kind}`));
    return [
      (medium as number) / (small as number),
      (large as number) / (medium as number),
    ] as const;
  };
  const nLogN = (10 * Math.log(10_000)) / Math.log(1_000);
  const budgeted = growth("8 KiB budget");
  const unbudgeted = growth("no budget");
  const within = (ratios: readonly [number, number]) =>
    ratios.every((ratio) => ratio <= nLogN * 1.25);
  const target = ms("10000 rows, 8 KiB budget");
  return [
    "## Catalog view",
    "",
    `Rows split over the four blocks (70% ready, 10% session, 10% packages, 10% marketplace), descriptions the corpus's real ones in turn (${descriptions.length} of them, ${Math.round(descriptions.reduce((sum, one) => sum + one.length, 0) / descriptions.length)} characters on average); mean of 3 calls, median of ${options.rounds} rounds.`,
    "",
    "| view | ms |",
    "|---|---|",
    ...rows,
    "",
    `Growth ×10 rows, with budget: ${budgeted.map((ratio) => `${ratio.toFixed(1)}×`).join(" then ")}; without: ${unbudgeted.map((ratio) => `${ratio.toFixed(1)}×`).join(" then ")} (n·log n would be ${nLogN.toFixed(1)}×).`,
    `Targets: 10,000 rows with an 8 KiB budget under 10 ms: ${target.toFixed(2)} ms ${verdict(target < 10)}; growth no worse than n·log n (with 25% for noise): ${verdict(within(budgeted) && within(unbudgeted))}.`,
  ].join("\n");
}

/** A deterministic catalog of `size` rows, each description one of the corpus's, in turn. */
function catalogOf(size: number, descriptions: readonly string[]): CatalogInput {
  const text = (index: number) => descriptions[index % descriptions.length] as string;
  const input = {
    skills: [] as NonNullable<CatalogInput["skills"]>[number][],
    packages: [] as NonNullable<CatalogInput["packages"]>[number][],
    marketplace: [] as NonNullable<CatalogInput["marketplace"]>[number][],
  };
  for (let index = 0; index < size; index++) {
    const name = `skill-${index.toString(36)}`;
    const kind = index % 10;
    if (kind < 8) {
      input.skills.push({
        name,
        description: text(index),
        source: kind === 7 ? "path" : "skillshelf",
        scope: kind === 7 ? "cli" : "user",
        path: `/home/u/.config/skillshelf/skills/${name}/SKILL.md`,
      });
    } else if (kind === 8) {
      input.packages.push({
        name,
        skills: [name],
        scope: "user",
        origin: "index",
        state: "ready",
        path: `/home/u/.config/skillshelf/packages/${name}`,
      });
    } else {
      input.marketplace.push({
        name,
        description: text(index),
        sourceUrl: `https://skills.example/${name}.tar.gz`,
      });
    }
  }
  return input;
}
