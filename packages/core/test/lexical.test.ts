import { filterLexical, matchLexical, parseLexicalQuery } from "@skillshelf/core";
import { describe, expect, it } from "vitest";
import { normalizeSearchText } from "../src/lexical.js";

describe("normalizeSearchText", () => {
  it.each([
    ["Git-Worktree_Create!", "git worktree create"],
    ["  many   spaces  ", "many spaces"],
    ["Crème brûlée — 2 ways", "crème brûlée 2 ways"],
    ["", ""],
  ])("%j → %j", (text, expected) => {
    expect(normalizeSearchText(text)).toBe(expected);
  });
});

describe("matchLexical", () => {
  it.each([
    // query, haystack, mode, expected
    ["worktree", "worktree create: make a git worktree", "all", true],
    ["wor", "worktree create", "all", true],
    ["wo", "worktree create", "all", false],
    ["git", "digital transformation", "all", false],
    ["tdd", "tdd", "all", true],
    ["prd", "write a prd", "all", true],
    ["merge conflict", "resolve merge conflicts in a branch", "all", true],
    ["merge conflict", "merge two lists", "all", false],
    ["merge conflict", "merge two lists", "any", true],
    [
      "please help me submit slurm batch jobs",
      "slurm jobs: submit and watch cluster work",
      "all",
      false,
    ],
    [
      "please help me submit slurm batch jobs",
      "slurm jobs: submit and watch cluster work",
      "any",
      true,
    ],
    ["", "anything", "all", true],
    ["   ", "anything", "all", true],
    ["the a an", "the fox", "all", false],
    ["the a an", "the fox", "any", false],
    ["the a an", "see the a an phrase", "all", true],
    ["Worktree!", "WORKTREE create", "all", true],
    ["x", "x marks", "all", true],
    ["x y", "xylophone yak", "all", false],
  ])("%j in %j (%s) is %s", (query, haystack, mode, expected) => {
    expect(matchLexical(parseLexicalQuery(query), haystack, mode as "all" | "any")).toBe(expected);
  });
});

describe("filterLexical", () => {
  const skills = ["resolve-merge-conflicts", "worktree-create", "slurm-jobs", "tdd"];
  const haystack = (name: string) => name.replaceAll("-", " ");

  it("keeps rows matching every term", () => {
    expect(filterLexical(skills, "merge conflict", haystack)).toEqual({
      items: ["resolve-merge-conflicts"],
      matchMode: "all",
    });
  });

  it("falls back to any term", () => {
    expect(filterLexical(skills, "slurm worktree", haystack)).toEqual({
      items: ["worktree-create", "slurm-jobs"],
      matchMode: "any",
    });
  });

  it("keeps everything for a query with nothing searchable", () => {
    expect(filterLexical(skills, " -- ", haystack)).toEqual({ items: skills, matchMode: null });
  });

  it("matches nothing for stopwords only", () => {
    expect(filterLexical(skills, "please help", haystack)).toEqual({ items: [], matchMode: "any" });
  });
});
