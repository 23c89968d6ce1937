import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appendUsage,
  disableUsage,
  enableUsage,
  readUsage,
  usageEnabled,
  usageFilePath,
} from "@skillshelf/store";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { storeEnvironment } from "./_store.js";

describe("the usage file (issue 58, item 4)", () => {
  it("counts nothing until enabled, adds each writer's lines, and forgets on disable", () => {
    const environment = storeEnvironment();
    const row = { day: "2026-12-01", skill: "acme/refunds", gets: 1, reads: 2 };
    expect(appendUsage(environment, [row])).toBe(false);
    expect(readUsage(environment)).toBeUndefined();
    enableUsage(environment);
    enableUsage(environment);
    expect(usageEnabled(environment)).toBe(true);
    // two servers writing down their counts: neither loses the other's
    expect(appendUsage(environment, [row])).toBe(true);
    expect(
      appendUsage(environment, [
        { ...row, day: "2026-12-05", reads: 0 },
        { day: "2026-12-05", skill: "mine", gets: 0, reads: 7 },
      ]),
    ).toBe(true);
    appendFileSync(usageFilePath(environment), "not json\n");
    expect(readUsage(environment)).toEqual({
      skills: [
        { skill: "mine", gets: 0, reads: 7, firstDay: "2026-12-05", lastDay: "2026-12-05" },
        {
          skill: "acme/refunds",
          gets: 2,
          reads: 2,
          firstDay: "2026-12-01",
          lastDay: "2026-12-05",
        },
      ],
      skipped: 1,
    });
    expect(
      readUsage(environment, "2026-12-02")?.skills.map((one) => [one.skill, one.reads]),
    ).toEqual([
      ["mine", 7],
      ["acme/refunds", 0],
    ]);
    expect(disableUsage(environment)).toBe(true);
    expect(usageEnabled(environment)).toBe(false);
    expect(disableUsage(environment)).toBe(false);
  });

  it("never writes through a link: a usage file that is one is refused, and disable removes the link alone", () => {
    const environment = storeEnvironment();
    const elsewhere = join(testdir({}), "target.txt");
    writeFileSync(elsewhere, "untouched\n");
    enableUsage(environment);
    disableUsage(environment);
    symlinkSync(elsewhere, usageFilePath(environment));
    expect(usageEnabled(environment)).toBe(false);
    expect(() => enableUsage(environment)).toThrow(
      expect.objectContaining({ code: "usage_file_unsafe" }),
    );
    expect(() =>
      appendUsage(environment, [{ day: "2026-12-01", skill: "x", gets: 1, reads: 0 }]),
    ).toThrow(expect.objectContaining({ code: "usage_file_unsafe" }));
    expect(disableUsage(environment)).toBe(true);
    expect(readFileSync(elsewhere, "utf8")).toBe("untouched\n");
  });
});
