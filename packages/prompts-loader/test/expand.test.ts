import {
  expandPromptTemplate,
  invokePromptTemplate,
  type PromptTemplate,
} from "@skillshelf/prompts-loader";
import { describe, expect, it } from "vitest";

const template = (overrides: Partial<PromptTemplate>): PromptTemplate => ({
  name: "review",
  description: "Review",
  path: "/p/review.md",
  realPath: "/p/review.md",
  scope: "project",
  source: "skillshelf",
  origin: "project",
  precedence: 50,
  trusted: true,
  content: "Review $1 with ${2:-care}; raw: $ARGUMENTS",
  displayOnly: false,
  frontmatter: {},
  ...overrides,
});

describe("expandPromptTemplate", () => {
  it("expands a command", () => {
    expect(expandPromptTemplate('/review  "a b.ts" fast', [template({})])).toEqual({
      kind: "expanded",
      name: "review",
      text: 'Review a b.ts with fast; raw:  "a b.ts" fast',
    });
  });

  it("returns undefined for text that is not a command, and refuses an unknown one", () => {
    expect(expandPromptTemplate("review this", [template({})])).toBeUndefined();
    expect(expandPromptTemplate("/nope", [template({})])).toMatchObject({
      kind: "refused",
      code: "prompt_unknown",
    });
  });

  it.each([
    // overrides, options, expected kind/code
    [
      { unavailable: "too large", trusted: false, displayOnly: true },
      {},
      { kind: "refused", code: "prompt_unavailable" },
    ],
    [{ trusted: false, displayOnly: true }, {}, { kind: "refused", code: "prompt_untrusted" }],
    [{ trusted: false, displayOnly: true }, { allowUntrusted: true }, { kind: "display" }],
    [{ displayOnly: true }, {}, { kind: "display" }],
    [{}, {}, { kind: "expanded" }],
  ])(
    "checks in order: unavailable, trust, display-only, substitution (%j)",
    (overrides, options, expected) => {
      expect(expandPromptTemplate("/review x", [template(overrides)], options)).toMatchObject(
        expected,
      );
    },
  );

  it("shows a display-only template's first fenced block and leaves the input untouched", () => {
    const card = template({
      displayOnly: true,
      content: "Intro $1\n~~~\nUsage: /review <file>\n~~~\n",
    });
    expect(expandPromptTemplate("/review  extra args", [card])).toEqual({
      kind: "display",
      name: "review",
      text: "Usage: /review <file>",
      input: "/review  extra args",
    });
  });

  it("invokes with arguments split by the caller", () => {
    expect(invokePromptTemplate(template({}), { args: ["a b.ts"] })).toEqual({
      kind: "expanded",
      name: "review",
      text: "Review a b.ts with care; raw: a b.ts",
    });
  });
});
