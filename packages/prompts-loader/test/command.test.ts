import { parsePromptCommand, splitArguments } from "@skillshelf/prompts-loader";
import { describe, expect, it } from "vitest";

describe("parsePromptCommand", () => {
  it.each([
    ["/review", { name: "review", args: [], raw: "" }],
    ["/review src/a.ts", { name: "review", args: ["src/a.ts"], raw: "src/a.ts" }],
    [
      "  /team:review  two  spaces",
      { name: "team:review", args: ["two", "spaces"], raw: " two  spaces" },
    ],
    ["/fix\r\nline two", { name: "fix", args: ["line", "two"], raw: "line two" }],
    ["/fix\nline two\n", { name: "fix", args: ["line", "two"], raw: "line two\n" }],
    [
      "/say \"hello world\" 'it is'",
      { name: "say", args: ["hello world", "it is"], raw: "\"hello world\" 'it is'" },
    ],
    ["review", undefined],
    ["/", undefined],
    ["/ spaced", undefined],
    ["", undefined],
  ])("%j", (text, expected) => {
    expect(parsePromptCommand(text)).toEqual(expected);
  });
});

describe("splitArguments", () => {
  it.each([
    ["a b  c", ["a", "b", "c"]],
    ["a\nb\r\nc\td", ["a", "b", "c", "d"]],
    ['"a b" c', ["a b", "c"]],
    ["'a \"b\"' c", ['a "b"', "c"]],
    ['"say \\"hi\\"" x', ['say "hi"', "x"]],
    ['"back\\\\slash"', ["back\\slash"]],
    ["'no \\escape'", ["no \\escape"]],
    ["a\\ b", ["a b"]],
    ['""', [""]],
    ["'' x", ["", "x"]],
    ['pre"fix"ed', ["prefixed"]],
    ['"unclosed quote', ["unclosed quote"]],
    ["", []],
    ["   ", []],
  ])("%j", (text, expected) => {
    expect(splitArguments(text)).toEqual(expected);
  });
});
