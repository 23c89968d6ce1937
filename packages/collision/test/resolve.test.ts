import {
  type CollisionCandidate,
  dedupeByRealPath,
  resolveCollisions,
  type SkillCandidate,
  skillRules,
} from "@skillshelf/collision";
import { describe, expect, it } from "vitest";

const skill = (overrides: Partial<SkillCandidate> & { path: string }): SkillCandidate => ({
  name: "deploy",
  scope: "user",
  source: "skillshelf",
  trusted: true,
  precedence: 30,
  ...overrides,
});

const projectOwn = skill({
  path: "/p/.skillshelf/skills/deploy/SKILL.md",
  scope: "project",
  precedence: 50,
});
const userOwn = skill({ path: "/h/.config/skillshelf/skills/deploy/SKILL.md" });
const claudeProject = skill({
  path: "/p/.claude/skills/deploy/SKILL.md",
  scope: "project",
  source: "claude-code",
  trusted: false,
  precedence: 40,
});
const claudeUser = skill({
  path: "/h/.claude/skills/deploy/SKILL.md",
  source: "claude-code",
  trusted: false,
  precedence: 20,
});
const codexUser = skill({
  path: "/h/.codex/skills/deploy/SKILL.md",
  source: "codex",
  trusted: false,
  precedence: 20,
});
const foreignPackage = skill({
  path: "/h/.config/skillshelf/packages/x/skills/deploy/SKILL.md",
  scope: "package",
  source: "package:x",
  trusted: false,
  precedence: 10,
});
const explicit = skill({
  path: "/tmp/deploy/SKILL.md",
  scope: "cli",
  source: "path",
  precedence: 60,
});
const nestedA = skill({ path: "/h/.config/skillshelf/skills/a/deploy/SKILL.md" });
const nestedB = skill({ path: "/h/.config/skillshelf/skills/b/deploy/SKILL.md" });

describe("skill collision order", () => {
  it.each([
    // title, winner, loser, deciding rule
    ["trusted beats a higher-precedence untrusted copy", userOwn, claudeProject, "trusted"],
    ["owned beats loose discovery when neither is trusted", foreignPackage, claudeProject, "owned"],
    ["project beats user", projectOwn, userOwn, "precedence"],
    ["an explicit path beats the project library", explicit, projectOwn, "precedence"],
    ["project agent folder beats user agent folder", claudeProject, claudeUser, "precedence"],
    ["agent rank breaks a precedence tie", claudeUser, codexUser, "agent-rank"],
    ["the path that sorts first breaks a full tie", nestedA, nestedB, "path"],
  ])("%s", (_title, winner, loser, reason) => {
    for (const input of [
      [winner, loser],
      [loser, winner],
    ]) {
      const result = resolveCollisions(input, {
        rules: skillRules,
        label: (item) => `${item.source}/${item.scope}`,
      });
      expect(result.winners).toEqual([winner]);
      expect(result.groups).toEqual([
        { name: "deploy", winner, losers: [{ item: loser, reason }] },
      ]);
      expect(result.diagnostics).toEqual([
        expect.objectContaining({
          severity: "warning",
          code: "collision",
          path: loser.path,
          details: {
            name: "deploy",
            winnerPath: winner.path,
            loserPath: loser.path,
            winnerScope: winner.scope,
            loserScope: loser.scope,
            reason,
          },
        }),
      ]);
    }
  });

  it("orders every candidate for one name and does not depend on input order", () => {
    const all = [
      codexUser,
      explicit,
      claudeUser,
      userOwn,
      projectOwn,
      claudeProject,
      foreignPackage,
    ];
    const expected = [
      explicit,
      projectOwn,
      userOwn,
      foreignPackage,
      claudeProject,
      claudeUser,
      codexUser,
    ];
    for (let shift = 0; shift < all.length; shift++) {
      const rotated = [...all.slice(shift), ...all.slice(0, shift)];
      const [group] = resolveCollisions(rotated, { rules: skillRules }).groups;
      expect([group?.winner, ...(group?.losers.map((loss) => loss.item) ?? [])]).toEqual(expected);
    }
  });
});

describe("generic resolver", () => {
  const item = (
    name: string,
    scope: CollisionCandidate["scope"],
    path: string,
  ): CollisionCandidate => ({ name, scope, path });

  it("uses the scope when no precedence is set, sorts winners by name and drops blank names", () => {
    const result = resolveCollisions([
      item("zeta", "user", "/u/zeta.md"),
      item("alpha", "user", "/u/alpha.md"),
      item("alpha", "project", "/p/alpha.md"),
      item("  ", "cli", "/blank.md"),
      item(" alpha ", "package", "/pkg/alpha.md"),
    ]);
    expect(result.winners.map((winner) => winner.path)).toEqual(["/p/alpha.md", "/u/zeta.md"]);
    expect(result.groups[0]?.losers.map((loss) => [loss.item.path, loss.reason])).toEqual([
      ["/u/alpha.md", "precedence"],
      ["/pkg/alpha.md", "precedence"],
    ]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.path)).toEqual([
      "/u/alpha.md",
      "/pkg/alpha.md",
    ]);
  });

  it("returns no groups and no diagnostics without clashes", () => {
    expect(resolveCollisions([item("a", "user", "/a"), item("b", "user", "/b")])).toMatchObject({
      groups: [],
      diagnostics: [],
    });
  });
});

describe("dedupeByRealPath", () => {
  it("keeps the best entry per real file and reports the others", () => {
    const viaLink = skill({
      path: "/h/.claude/skills/deploy/SKILL.md",
      source: "claude-code",
      trusted: false,
      precedence: 20,
    });
    const real = new Map([
      [userOwn.path, "/real/deploy/SKILL.md"],
      [viaLink.path, "/real/deploy/SKILL.md"],
      [projectOwn.path, projectOwn.path],
    ]);
    const result = dedupeByRealPath(
      [viaLink, projectOwn, userOwn],
      (entry) => real.get(entry.path) as string,
      skillRules,
    );
    expect(result.kept).toEqual([projectOwn, userOwn]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "info",
        code: "duplicate_file",
        path: viaLink.path,
        details: expect.objectContaining({ winnerPath: userOwn.path }),
      }),
    ]);
  });
});
