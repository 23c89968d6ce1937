import { readFileSync } from "node:fs";
import { parseFrontmatter } from "@skillshelf/core";
import { loadSkills, normalizedSkillHash, skillIdentity } from "@skillshelf/skills-loader";
import { copyCorpus, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const source =
  "---\nname: deploy\ndescription: Ship it.\nskillshelf:\n  registry-id: acme/tools\n---\n# Deploy\n\nSteps.\n";

describe("normalizedSkillHash", () => {
  it.each([
    [
      "install stamps in the skillshelf block",
      "---\nname: deploy\ndescription: Ship it.\nskillshelf:\n  registry-id: acme/tools\n  source-url: https://x\n  installed-at: '2026-11-01'\n  installedHash: abc\n  audit: pass\n---\n# Deploy\n\nSteps.\n",
    ],
    [
      "flat stamps at the top level",
      "---\nname: deploy\nupdated-at: now\ndescription: Ship it.\ninstalled-by: worker\nskillshelf:\n  registry-id: acme/tools\n---\n# Deploy\n\nSteps.\n",
    ],
    [
      "reordered keys, quotes and comments",
      "---\n# a comment\ndescription: 'Ship it.'\nskillshelf: {registry-id: \"acme/tools\"}\nname: deploy\n---\n# Deploy\n\nSteps.\n",
    ],
    ["CRLF line endings", source.replaceAll("\n", "\r\n")],
  ])("ignores %s", (_name, text) => {
    expect(normalizedSkillHash(text)).toBe(normalizedSkillHash(source));
  });

  it("drops a skillshelf block that holds only stamps", () => {
    const plain = "---\nname: a\ndescription: b\n---\nbody\n";
    const stamped = "---\nname: a\ndescription: b\nskillshelf:\n  installed-at: now\n---\nbody\n";
    expect(normalizedSkillHash(stamped)).toBe(normalizedSkillHash(plain));
  });

  it.each([
    ["the body", source.replace("Steps.", "Other steps.")],
    ["a description", source.replace("Ship it.", "Ship it now.")],
    ["registry-id, which is identity", source.replace("acme/tools", "acme/other")],
    [
      "a stamp key nested deeper than the block",
      source.replace(
        "  registry-id: acme/tools",
        "  registry-id: acme/tools\n  extra:\n    audit: pass",
      ),
    ],
  ])("changes with %s", (_name, text) => {
    expect(normalizedSkillHash(text)).not.toBe(normalizedSkillHash(source));
  });

  it("hashes files without readable frontmatter and YAML special floats", () => {
    expect(normalizedSkillHash("no frontmatter")).toMatch(/^[0-9a-f]{64}$/);
    expect(normalizedSkillHash("---\na: .inf\nb: .nan\n---\n")).not.toBe(
      normalizedSkillHash("---\na: '.inf'\nb: .nan\n---\n"),
    );
  });
});

describe("skillIdentity", () => {
  it("equals normalizedSkillHash of the file for every corpus skill the loader reads", () => {
    const root = copyCorpus("skills");
    const { items, collisions } = loadSkills({
      roots: [
        {
          path: root,
          scope: "user",
          source: "skillshelf",
          origin: "user",
          precedence: 30,
          trust: "trusted",
        },
      ],
    });
    const skills = [
      ...items,
      ...collisions.flatMap((group) => group.losers.map((loss) => loss.item)),
    ];
    expect(skills.length).toBeGreaterThan(100);
    for (const skill of skills) {
      const text = readFileSync(skill.realPath, "utf8");
      const parsed = parseFrontmatter(text);
      if (!parsed.ok) continue;
      expect({ path: skill.path, identity: skillIdentity(skill) }).toEqual({
        path: skill.path,
        identity: normalizedSkillHash(text),
      });
    }
  });

  it("is the same for an installed copy whose only change is an install stamp", () => {
    const source = testdir({ "pdf/SKILL.md": skillFile("pdf", "PDFs.") });
    const stamped = testdir({
      "pdf/SKILL.md": skillFile("pdf", "PDFs.", "installed-at: 2026-01-01T00:00:00Z\n"),
    });
    const identities = [source, stamped].map((path) => {
      const [skill] = loadSkills({
        roots: [
          {
            path,
            scope: "user",
            source: "skillshelf",
            origin: "user",
            precedence: 30,
            trust: "trusted",
          },
        ],
      }).items;
      return skillIdentity(skill as Parameters<typeof skillIdentity>[0]);
    });
    expect(identities[0]).toBe(identities[1]);
  });
});
