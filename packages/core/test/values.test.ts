import {
  AGENTS,
  agentNeedsCopy,
  agentRank,
  agentSkillFolder,
  canonicalJson,
  canonicalJsonFile,
  canonicalJsonFileReusing,
  decodeText,
  errnoCode,
  findAgent,
  isSkillshelfError,
  SkillshelfError,
  sameJson,
  sha256,
} from "@skillshelf/core";
import { describe, expect, it } from "vitest";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined fields", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("gives equal strings for equal values built in different orders", () => {
    expect(canonicalJson({ x: 1, y: "2" })).toBe(canonicalJson({ y: "2", x: 1 }));
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, () => 1, Symbol("s")])("refuses %s", (value) => {
    expect(() => canonicalJson({ value })).toThrow(TypeError);
    expect(() => canonicalJsonFile({ value })).toThrow(TypeError);
  });

  it("writes files as the canonical text, indented, in one pass", () => {
    const value = {
      b: [1, { z: "é✓", y: null, "10": true, "2": false }],
      a: { when: new Date(0), c: undefined },
    };
    expect(canonicalJsonFile(value)).toBe(
      `${JSON.stringify(JSON.parse(canonicalJson(value)), null, 2)}\n`,
    );
  });
});

describe("sameJson", () => {
  /** A small deterministic generator (no randomness from outside the test). */
  function generator(seed: number) {
    let state = seed;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const value = (depth: number): unknown => {
      const kind = depth > 2 ? pick(["scalar"]) : pick(["scalar", "array", "object"]);
      if (kind === "scalar")
        return pick<unknown>([
          null,
          true,
          false,
          0,
          -0,
          1,
          2.5,
          "",
          "a",
          "10",
          undefined,
          new Date(0),
          "1970-01-01T00:00:00.000Z",
        ]);
      if (kind === "array")
        return Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1));
      const record: Record<string, unknown> = {};
      for (const key of ["b", "a", "10", "2"].filter(() => next() < 0.6))
        record[key] = value(depth + 1);
      return record;
    };
    // a value with its keys in another order (integer-like keys stay first, as JavaScript keeps them)
    const reordered = (item: unknown): unknown => {
      if (Array.isArray(item)) return item.map(reordered);
      if (typeof item !== "object" || item === null || item instanceof Date) return item;
      return Object.fromEntries(
        Object.entries(item)
          .reverse()
          .map(([key, inner]) => [key, reordered(inner)]),
      );
    };
    return { value, reordered, next };
  }

  it("agrees with comparing canonical texts, over generated values and their reorderings", () => {
    const { value, reordered } = generator(7);
    let equal = 0;
    for (let round = 0; round < 3000; round++) {
      const one = value(0);
      const other = round % 3 === 0 ? reordered(one) : value(0);
      const expected = canonicalJson(one ?? null) === canonicalJson(other ?? null);
      expect(sameJson(one, other)).toBe(expected);
      if (expected) equal += 1;
    }
    // both answers were exercised many times
    expect(equal).toBeGreaterThan(500);
    expect(equal).toBeLessThan(2900);
  });

  it("is equal to nothing for what canonicalJson refuses", () => {
    for (const refused of [Number.NaN, Number.POSITIVE_INFINITY, () => 1, Symbol("s")])
      expect(sameJson({ value: refused }, { value: refused })).toBe(false);
    expect(sameJson({ toString: "x" }, {})).toBe(false);
    expect(sameJson({ a: undefined }, {})).toBe(true);
  });
});

describe("canonicalJsonFileReusing", () => {
  const table = () => ({
    version: 1,
    empty: {},
    list: ["b", "a"],
    installed: {
      zeta: { b: [1, { y: 2, x: "line\nbreak" }], a: null, gone: undefined },
      alpha: {},
      beta: { when: new Date(0), nested: { d: 1, c: [] } },
    },
    skipped: undefined,
  });

  it.each([0, 1, 2, 3, 5])(
    "writes exactly the canonical file text reusing at depth %i",
    (depth) => {
      const value = table();
      expect(canonicalJsonFileReusing(value, new WeakMap(), depth)).toBe(canonicalJsonFile(value));
    },
  );

  it("reuses the text of a record object it has written and writes new objects afresh", () => {
    const value = table();
    const fragments = new WeakMap<object, string>();
    canonicalJsonFileReusing(value, fragments, 2);
    fragments.set(value.installed.alpha, '"kept"');
    const next = { ...value, installed: { ...value.installed, beta: { fresh: true } } };
    const text = canonicalJsonFileReusing(next, fragments, 2);
    expect(JSON.parse(text).installed).toEqual({
      alpha: "kept",
      beta: { fresh: true },
      zeta: JSON.parse(canonicalJsonFile(value)).installed.zeta,
    });
  });

  it("refuses what canonicalJsonFile refuses", () => {
    expect(() => canonicalJsonFileReusing({ a: { b: Number.NaN } }, new WeakMap(), 1)).toThrow(
      TypeError,
    );
  });
});

describe("decodeText", () => {
  it.each([
    ["UTF-8 text", Buffer.from("héllo ✓"), { ok: true, text: "héllo ✓" }],
    ["a byte-order mark is kept", Buffer.from("\ufeffx"), { ok: true, text: "\ufeffx" }],
    ["NUL", Buffer.from([0x61, 0x00, 0x62]), { ok: false, reason: "nul" }],
    ["invalid UTF-8", Buffer.from([0x61, 0xff, 0x62]), { ok: false, reason: "utf8" }],
    ["truncated sequence", Buffer.from([0xe2, 0x9c]), { ok: false, reason: "utf8" }],
  ])("%s", (_name, bytes, expected) => {
    expect(decodeText(bytes)).toEqual(expected);
  });
});

describe("sha256", () => {
  it("hashes strings as UTF-8 and bytes as given", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256(Buffer.from("abc"))).toBe(sha256("abc"));
  });
});

describe("agent table", () => {
  it("ranks agents in table order and unknown ids last", () => {
    expect(AGENTS.map((agent) => agent.id).slice(0, 6)).toEqual([
      "claude-code",
      "codex",
      "opencode",
      "copilot",
      "pi",
      "agents",
    ]);
    expect(agentRank("claude-code")).toBe(0);
    expect(agentRank("agents")).toBe(5);
    expect(agentRank("nobody")).toBe(AGENTS.length);
  });

  it("has every agent with a public source, well-formed relative folders and one id each (issue 25, item 3)", () => {
    // the 78 agents of the most used peer's table (skills@1.7.4), under their ids or aliases
    expect(AGENTS.length).toBeGreaterThanOrEqual(79);
    const ids = AGENTS.flatMap((agent) => [agent.id, ...(agent.aliases ?? [])]);
    expect(new Set(ids).size).toBe(ids.length);
    const wellFormed = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
    for (const agent of AGENTS) {
      expect(agent.view.source, agent.id).toMatch(/^https:\/\//);
      expect(agent.view.skillRoots.length, agent.id).toBeGreaterThan(0);
      const folders = [
        ...agent.view.skillRoots.map((root) => root.path),
        ...[
          agent.userSkillRoot,
          agent.projectSkillRoot,
          agent.userPromptRoot,
          agent.projectPromptRoot,
          agent.userAgentRoot,
          agent.projectAgentRoot,
        ].filter((folder) => folder !== undefined),
      ];
      for (const folder of folders) expect(folder, agent.id).toMatch(wellFormed);
      // an owned skill folder is one the agent itself reads
      for (const [column, base] of [
        ["userSkillRoot", "home"],
        ["projectSkillRoot", "project"],
      ] as const) {
        const owned = agent[column];
        if (owned !== undefined)
          expect(
            agent.view.skillRoots.some(
              (root) => root.path === owned && (root.base === "home") === (base === "home"),
            ),
            `${agent.id} ${column}`,
          ).toBe(true);
      }
    }
    // each folder column is owned by one agent
    for (const column of [
      "userSkillRoot",
      "projectSkillRoot",
      "userPromptRoot",
      "projectPromptRoot",
    ] as const) {
      const owned = AGENTS.flatMap((agent) => agent[column] ?? []);
      expect(new Set(owned).size, column).toBe(owned.length);
    }
    expect(findAgent("github-copilot")?.id).toBe("copilot");
    expect(agentSkillFolder(findAgent("droid") as (typeof AGENTS)[number], "project")).toBe(
      ".factory/skills",
    );
    expect(findAgent("cline")?.view.skillRoots).toContainEqual({
      base: "project",
      path: ".agents/skills",
    });
    expect(agentNeedsCopy(findAgent("cursor") as (typeof AGENTS)[number])).toBe(true);
  });

  it("has relative roots only", () => {
    for (const agent of AGENTS) {
      for (const root of [
        agent.userSkillRoot,
        agent.projectSkillRoot,
        agent.userPromptRoot,
        agent.projectPromptRoot,
      ]) {
        if (root !== undefined) expect(root.startsWith("/")).toBe(false);
      }
    }
  });
});

describe("SkillshelfError", () => {
  it("carries code, hint, path and cause", () => {
    const cause = Object.assign(new Error("no"), { code: "ENOENT" });
    const error = new SkillshelfError("tree_missing", "folder is missing", {
      hint: "create it",
      path: "/x",
      cause,
    });
    expect(error).toMatchObject({
      name: "SkillshelfError",
      code: "tree_missing",
      hint: "create it",
      path: "/x",
      cause,
    });
    expect(isSkillshelfError(error)).toBe(true);
    expect(isSkillshelfError(new Error("plain"))).toBe(false);
    expect(errnoCode(cause)).toBe("ENOENT");
    expect(errnoCode("text")).toBeUndefined();
  });
});
