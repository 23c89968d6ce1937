import { buildCatalogView, type CatalogInput, SHORTEN_FLOOR } from "@skillshelf/catalog-view";
import { pick as pickOne, seededRandom } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { offer, pkg, skill } from "./_catalog.js";

const WORDS = [
  "deploy",
  "review",
  "git",
  "merge",
  "slurm",
  "paper",
  "déjà",
  "测试",
  "🚀",
  "tests",
  "the",
  "a",
];

function randomCatalog(random: () => number): CatalogInput {
  const pick = <T>(items: readonly T[]): T => pickOne(random, items);
  const text = (max: number) =>
    Array.from({ length: Math.floor(random() * max) }, () => pick(WORDS)).join(" ");
  const count = Math.floor(random() * 60);
  const input = {
    skills: [] as ReturnType<typeof skill>[],
    packages: [] as ReturnType<typeof pkg>[],
    marketplace: [] as ReturnType<typeof offer>[],
  };
  for (let index = 0; index < count; index++) {
    const name = `${pick(WORDS.slice(0, 6))}-${index}`;
    const kind = random();
    if (kind < 0.6)
      input.skills.push(
        skill(name, text(80), {
          drifted: random() < 0.1,
          source: random() < 0.2 ? "path" : "skillshelf",
        }),
      );
    else if (kind < 0.75) input.packages.push(pkg(name, [name]));
    else
      input.marketplace.push(
        offer(name, text(60), random() < 0.5 ? { category: pick(WORDS) } : {}),
      );
  }
  return input;
}

describe("catalog properties over random catalogs and budgets", () => {
  const random = seededRandom(42);
  const cases = Array.from({ length: 150 }, () => ({
    catalog: randomCatalog(random),
    budget: 150 + Math.floor(random() * 12_000),
    query: random() < 0.3 ? WORDS[Math.floor(random() * WORDS.length)] : undefined,
    format: (["text", "xml", "markdown"] as const)[Math.floor(random() * 3)],
  }));

  it.each(cases.map((entry, index) => [index, entry] as const))(
    "case %i",
    (_index, { catalog, budget, query, format }) => {
      const input = { ...catalog, budget, query, format };
      const visited: string[] = [];
      let offset: number | undefined = 0;
      let first: ReturnType<typeof buildCatalogView> | undefined;
      for (let pages = 0; offset !== undefined; pages++) {
        expect(pages, "paging terminates").toBeLessThan(200);
        const view = buildCatalogView({ ...input, offset });
        first ??= view;
        const fallback = view.text.startsWith("Available skills: ");
        if (!fallback) {
          // whenever a page fits, it fits the budget and keeps the protocol line
          expect(Buffer.byteLength(view.text)).toBeLessThanOrEqual(budget);
          if (view.total > 0 || query !== undefined)
            expect(view.text).toContain("If one skill above matches the current task");
        }
        expect(
          buildCatalogView({ ...input, offset }).text,
          "the same offset gives the same text",
        ).toBe(view.text);
        visited.push(...view.rows.map((row) => row.key));
        // a zero-row page steps over exactly one row, too large to carry
        if (view.shown === 0 && view.text.includes("was stepped over"))
          visited.push(`stepped:${offset}`);
        if (view.nextOffset !== undefined) expect(view.nextOffset).toBeGreaterThan(offset);
        if (fallback) {
          visited.length = 0;
          break;
        }
        offset = view.nextOffset;
      }
      if (visited.length > 0 && first !== undefined) {
        const unbudgeted = buildCatalogView({ ...catalog, query, format, limit: undefined });
        const keys = unbudgeted.rows.map((row) => row.key);
        expect(visited.length).toBe(keys.length);
        expect(visited.filter((key) => !key.startsWith("stepped:"))).toEqual(
          keys.filter((key) => visited.includes(key)),
        );
      }
    },
  );

  it("exercises what it claims: most cases fit a page, many are cut by the budget", () => {
    const firsts = cases.map(({ catalog, budget, query, format }) =>
      buildCatalogView({ ...catalog, budget, query, format }),
    );
    expect(
      firsts.filter((view) => !view.text.startsWith("Available skills: ")).length,
    ).toBeGreaterThan(120);
    expect(firsts.filter((view) => view.budgetLimited && view.shown > 0).length).toBeGreaterThan(
      20,
    );
  });
});

describe("the budget is a promise", () => {
  const random = seededRandom(7);
  const cases = Array.from({ length: 200 }, () => ({
    catalog: randomCatalog(random),
    budget: Math.floor(random() ** 2 * 6_000),
    format: (["text", "xml", "markdown"] as const)[Math.floor(random() * 3)],
  }));

  it("never exceeds any budget down to 0, and shorten shows at least as many rows as drop", () => {
    let shortenedMore = 0;
    for (const { catalog, budget, format } of cases) {
      const plain = buildCatalogView({ ...catalog, budget, format });
      const shortened = buildCatalogView({ ...catalog, budget, format, fit: "shorten" });
      for (const view of [plain, shortened]) {
        expect(Buffer.byteLength(view.text)).toBeLessThanOrEqual(budget);
        expect(view.fits).toBe(view.text !== "");
      }
      expect(shortened.shown).toBeGreaterThanOrEqual(plain.shown);
      if (shortened.shown > plain.shown) shortenedMore += 1;
    }
    // the property is not vacuous: tiny budgets give empty views, and shorten often helps
    expect(cases.some(({ budget }) => budget < 60)).toBe(true);
    expect(shortenedMore).toBeGreaterThan(5);
  });

  it("fits more than one skill into 1,250 bytes beside a 1,000-character description", () => {
    const skills = [
      skill(
        "long-one",
        `${"Explains every step of a very long procedure in detail. ".repeat(23)}End.`,
      ),
      skill("short-a", "Formats changelogs."),
      skill("short-b", "Checks links in docs."),
    ];
    expect(skills[0]?.description.length).toBeGreaterThan(1_000);
    const plain = buildCatalogView({ skills, budget: 1_250 });
    const shortened = buildCatalogView({ skills, budget: 1_250, fit: "shorten" });
    expect(plain.shown).toBeLessThan(3);
    expect(shortened.shown).toBe(3);
    expect(shortened.shortened).toEqual(["long-one"]);
    const line = shortened.rows.find((row) => row.name === "long-one")?.line ?? "";
    expect(line.endsWith("…")).toBe(true);
    // cut at a word boundary, and never below the floor
    expect(line).toMatch(/ \S+…$/);
    expect(line.split("): ")[1]?.length).toBeGreaterThanOrEqual(SHORTEN_FLOOR);
  });
});
