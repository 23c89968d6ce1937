import { describe, expect, it } from "vitest";
import { keywordScanner } from "../src/_keywords.js";

// The keyword automaton against the obvious definition: a keyword is present when the lower-cased
// text includes it (for ASCII case; other bytes as they are).

const WORDS = ["he", "she", "his", "hers", "curl", ".ssh", "nc ", "\u200b", "\u{e0041}", "ab", "b"];

function naive(text: string): number {
  const lower = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  return WORDS.reduce((bits, word, at) => (lower.includes(word) ? bits | (1 << at) : bits), 0);
}

describe("keywordScanner", () => {
  const scanner = keywordScanner(WORDS.map((word, at) => [word, 1 << at] as const));
  const scan = (text: string) => scanner.scan(Buffer.from(text, "utf8"));

  it("finds overlapping keywords, upper-case ASCII, invisible characters and a keyword at the end", () => {
    expect(scan("USHERS")).toBe(naive("USHERS"));
    expect(scan("ushers")).toBe(0b1011);
    expect(scan("run CURL now")).toBe(1 << 4);
    expect(scan("cat ~/.SSH/id")).toBe(1 << 5);
    expect(scan("a\u200bb")).toBe((1 << 7) | (1 << 10));
    expect(scan("tag\u{e0041}")).toBe(1 << 8);
    expect(scan("x nc")).toBe(0);
    expect(scan("")).toBe(0);
  });

  it("agrees with includes on 2,000 random texts", () => {
    const alphabet = [
      "a",
      "b",
      "c",
      "e",
      "h",
      "i",
      "r",
      "s",
      "H",
      "S",
      "C",
      "U",
      "R",
      "L",
      ".",
      " ",
      "n",
      "\u200b",
      "é",
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 2000; round++) {
      const length = Math.floor(random() * 24);
      const text = Array.from(
        { length },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join("");
      expect(scan(text), JSON.stringify(text)).toBe(naive(text));
    }
  });
});
