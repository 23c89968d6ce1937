import type {
  CatalogInput,
  CatalogOffer,
  CatalogPackage,
  CatalogSkill,
} from "@skillshelf/catalog-view";

export const skill = (
  name: string,
  description: string,
  extra: Partial<CatalogSkill> = {},
): CatalogSkill => ({
  name,
  description,
  source: "skillshelf",
  scope: "user",
  path: `/home/ada/.config/skillshelf/skills/${name}/SKILL.md`,
  ...extra,
});

export const pkg = (
  name: string,
  skills: string[],
  extra: Partial<CatalogPackage> = {},
): CatalogPackage => ({
  name,
  skills,
  scope: "user",
  origin: "index",
  state: "ready",
  path: `/home/ada/.config/skillshelf/packages/${name}`,
  ...extra,
});

export const offer = (
  name: string,
  description: string,
  extra: Partial<CatalogOffer> = {},
): CatalogOffer => ({
  name,
  description,
  sourceUrl: `https://skills.example/${name}.tar.gz`,
  ...extra,
});

/** The fixed catalog the golden views pin. */
export const FIXED: CatalogInput = {
  skills: [
    skill("worktree-create", "Create a git worktree for a branch and switch to it."),
    skill(
      "resolve-merge-conflicts",
      "Resolve merge conflicts after a rebase or merge, keeping both sides' intent.",
    ),
    skill("tdd", "Build a feature test-first: red, green, refactor.", {
      triggers: ["test first", "red green"],
    }),
    skill("ship", "Ship a release: changelog, tag, publish.", {
      drifted: true,
      scope: "project",
      path: "/work/app/.skillshelf/skills/ship/SKILL.md",
    }),
    skill("slurm-jobs", "Submit and watch batch jobs on a Slurm cluster.", {
      source: "package:slurm",
      scope: "user",
    }),
    skill("local-notes", "Take notes for this session only.", {
      source: "path",
      scope: "cli",
      path: "/tmp/notes/SKILL.md",
    }),
  ],
  packages: [
    pkg("wtfp", ["why-the-failing-pipeline"], { state: "ready" }),
    pkg("research-kit", ["arxiv-literature"], { scope: "project", state: "disabled" }),
  ],
  marketplace: [
    offer("file-ticket", "File a well-formed ticket in the team's tracker.", {
      category: "workflow",
    }),
    offer("arxiv-literature", "Search arXiv and summarise papers into citation-ready cards.", {
      category: "research",
      triggers: ["paper survey"],
    }),
  ],
};
