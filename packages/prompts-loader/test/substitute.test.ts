import { substituteArguments, templateParameters } from "@skillshelf/prompts-loader";
import { describe, expect, it } from "vitest";

const fill = (template: string, args: string[], raw?: string) =>
  substituteArguments(template, { args, raw });

describe("substituteArguments", () => {
  it.each([
    // template, args, raw, expected
    ["Fix $1 in $2", ["bug", "app.ts"], undefined, "Fix bug in app.ts"],
    ["Fix $1 in $2", ["bug"], undefined, "Fix bug in "],
    ["$10 and $1", ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"], undefined, "j and a"],
    ["$0 stays", ["a"], undefined, "$0 stays"],
    ["All: $@", ["a", "b c"], undefined, "All: a b c"],
    ["Raw: $ARGUMENTS", ["a", "b"], '  a   "b"\t', 'Raw:   a   "b"\t'],
    ["Raw: $ARGUMENTS", ["a", "b"], undefined, "Raw: a b"],
    ["CRLF $ARGUMENTS", [], "line1\r\nline2", "CRLF line1\r\nline2"],
    ["${1}x", ["a"], undefined, "ax"],
    ["${1:-none}", [], undefined, "none"],
    ["${1:-none}", [""], undefined, "none"],
    ["${1:-none}", ["given"], undefined, "given"],
    ["${2:-}", ["a"], undefined, ""],
    ["${@:-nothing}", [], undefined, "nothing"],
    ["${@:-nothing}", ["x", "y"], undefined, "x y"],
    ["${ARGUMENTS:-default}", [], "", "default"],
    ["${ARGUMENTS:-default}", ["a"], " a ", " a "],
    ["${@:2}", ["a", "b", "c"], undefined, "b c"],
    ["${@:2:1}", ["a", "b", "c"], undefined, "b"],
    ["${@:5}", ["a"], undefined, ""],
    ["${@:1:0}", ["a"], undefined, ""],
    ["${1:-a}b}", [], undefined, "ab}"],
    ["${1:2}", ["a"], undefined, "${1:2}"],
    ["${ARGUMENTS:2}", ["a"], undefined, "${ARGUMENTS:2}"],
    ["${foo}", ["a"], undefined, "${foo}"],
    ["${1", ["a"], undefined, "${1"],
    ["${1:-unclosed", ["a"], undefined, "${1:-unclosed"],
    ["$", [], undefined, "$"],
    ["$$1", ["a"], undefined, "$a"],
    ["price: $5", [], undefined, "price: "],
    ["$ARGUMENTSX", [], "r", "rX"],
  ])("%j with %j", (template, args, raw, expected) => {
    expect(fill(template, args, raw)).toBe(expected);
  });

  it("never expands substituted text again", () => {
    expect(fill("$1 / ${2:-$1} / $ARGUMENTS", ["$2", "$@"], "$1 ${@:1}")).toBe(
      "$2 / $@ / $1 ${@:1}",
    );
    expect(fill("${1:-$ARGUMENTS}", [], "raw")).toBe("$ARGUMENTS");
  });

  it("keeps hostile input intact: thousands of unclosed braces, and one close at the very end", () => {
    const unclosed = "${1:-".repeat(20_000);
    expect(fill(unclosed, ["a"])).toBe(unclosed);
    const manyHeads = `${"${".repeat(20_000)}}`;
    expect(fill(manyHeads, ["a"])).toBe(manyHeads);
    const manyDefaults = `${"${1:-x".repeat(5_000)}}`;
    expect(fill(manyDefaults, [])).toBe(`x${"${1:-x".repeat(4_999)}`);
  });
});

describe("templateParameters", () => {
  it("reads the highest position and whether the rest is taken, as substitution would", () => {
    expect(templateParameters("Review $1 against ${3:-main}")).toEqual({
      positions: 3,
      rest: false,
    });
    expect(templateParameters("Fix $ARGUMENTS")).toEqual({ positions: 0, rest: true });
    expect(templateParameters("Run ${@:2} after $1")).toEqual({ positions: 1, rest: true });
    expect(templateParameters("Costs $5.00? no: ${x} and $ alone")).toEqual({
      positions: 5,
      rest: false,
    });
    expect(templateParameters("Nothing to fill")).toEqual({ positions: 0, rest: false });
  });
});
