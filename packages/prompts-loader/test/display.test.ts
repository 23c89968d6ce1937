import { extractDisplayText } from "@skillshelf/prompts-loader";
import { describe, expect, it } from "vitest";

describe("extractDisplayText", () => {
  it.each([
    ["backtick fence", "Intro\n```\ncard line\n```\nafter", "card line"],
    ["tilde fence", "~~~\ncard\n~~~", "card"],
    ["info string", "```text\ncard\n```", "card"],
    ["longer closing fence", "```\ncard\n`````", "card"],
    ["longer opening fence holds a shorter one", "````\n```\ninner\n```\n````", "```\ninner\n```"],
    ["indented fence strips its indent", "  ```\n  card\n    deeper\n ```", "card\n  deeper"],
    ["CRLF", "intro\r\n~~~\r\ncard\r\nline\r\n~~~\r\n", "card\nline"],
    ["only the first block", "```\none\n```\n```\ntwo\n```", "one"],
    ["mismatched fence characters: whole body", "```\ncard\n~~~\n", "```\ncard\n~~~\n"],
    ["unclosed fence: whole body", "x\n```\ncard", "x\n```\ncard"],
    ["no fence: whole body, LF", "Just\r\ntext", "Just\ntext"],
    ["four spaces is code, not a fence", "    ```\ncard\n    ```", "    ```\ncard\n    ```"],
    [
      "backtick info string with a backtick is not a fence",
      "```a`b\ncard\n```\n",
      "```a`b\ncard\n```\n",
    ],
    ["empty block", "```\n```", ""],
  ])("%s", (_name, body, expected) => {
    expect(extractDisplayText(body)).toBe(expected);
  });
});
