import { parseYamlDocument, parseYamlMapping } from "@skillshelf/core";
import { describe, expect, it } from "vitest";

describe("repeated keys", () => {
  it.each<[string, string, number, number]>([
    ["at the top", "a: 1\nb: 2\na: 3\n", 3, 1],
    ["in a nested mapping", "outer:\n  x: 1\n  x: 2\n", 3, 3],
    ["in a mapping inside a list", "- name: a\n  name: b\n", 2, 3],
    ["in a flow mapping", "{k: 1, k: 2}\n", 1, 8],
  ])("are refused %s, with the line and column of the repeat", (_where, text, line, column) => {
    expect(parseYamlDocument(text)).toMatchObject({ ok: false, reason: "invalid", line, column });
  });

  it("keep keys of different types apart, as YAML does", () => {
    // two keys for YAML, one property once they become a JavaScript object
    expect(parseYamlMapping('1: a\n"1": b\n', { fastPath: false })).toEqual({
      ok: true,
      value: { 1: "b" },
    });
  });

  it("take time linear in the number of keys (issue 8, item 3)", () => {
    const document = (keys: number) =>
      Array.from({ length: keys }, (_, index) => `key-${index}: ${index}\n`).join("");
    const time = (text: string, runs: number) => {
      let fastest = Number.POSITIVE_INFINITY;
      for (let run = 0; run < runs; run++) {
        const start = process.hrtime.bigint();
        expect(parseYamlDocument(text, { maxLength: text.length }).ok).toBe(true);
        fastest = Math.min(fastest, Number(process.hrtime.bigint() - start));
      }
      return fastest;
    };
    const large = document(40_000);
    time(document(2_000), 1); // warm up
    const small = time(document(10_000), 2);
    // four times the keys: about four times the time when linear, sixteen when quadratic
    expect(time(large, 1) / small).toBeLessThan(10);
    const repeated = `${large}key-7: again\n`;
    expect(parseYamlDocument(repeated, { maxLength: repeated.length })).toMatchObject({
      ok: false,
      line: 40_001,
    });
  });
});
