import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyTree, removeTree, SkillshelfError } from "@skillshelf/core";
import { type GitOptions, parseSourceAs, privateTempFolder, runGit } from "@skillshelf/sources";
import { realFolder } from "../_folders.js";
import type { PublishedSkill } from "../_publishable.js";
import type { Destination, PublishedArtifact } from "./_destination.js";
import { namedIndex, repositoryIndex, syncRepositoryIndex } from "./_index-rows.js";

// a destination git reads as a repository: git+…, ssh://, file://, git@host:…, or a .git URL
const GIT_TEXT = /^(git\+|ssh:\/\/|file:\/\/|[\w.-]+@[\w.-]+:|https?:\/\/.*\.git(\/\/|#|$))/i;

/**
 * A git repository: each skill written to `<folder>/<name>` (default folder `skills`, or
 * `//<folder>`) on the branch named (`#<branch>`, else the repository's own), committed as
 * `Publish <name>@<version>, …`, tagged `<name>@<version>`, and pushed with its tags. A tag
 * that already exists is refused (`publish_tag_exists`): a published version does not change.
 * A package index the repository keeps (its root's `library.yaml`, or the `index` named) gets
 * each published skill's row in the same commit.
 */
export const GIT_REPOSITORY: Destination<"git"> = {
  syntax:
    "a git repository (git+<url or path>, ssh://…, file://…, git@host:…, …/repo.git)[//folder][#branch]",
  parse: (text, baseDir) => {
    if (!GIT_TEXT.test(text)) return undefined;
    const source = parseSourceAs("git", text, baseDir);
    if (source === undefined)
      throw new SkillshelfError(
        "publish_destination_invalid",
        `${text} is not a git repository to push to`,
        {
          details: { destination: text },
        },
      );
    const { url, ref, path } = source;
    return {
      kind: "git",
      url,
      folder: path ?? "skills",
      ...(ref === undefined ? {} : { branch: ref }),
    };
  },
  describe: (destination) =>
    `${destination.url}//${destination.folder}${destination.branch === undefined ? "" : `#${destination.branch}`}`,
  write: async (skills, destination, { dryRun, environment, tempDir, signingKey, index }) => {
    const artifacts = skills.map(
      (skill): PublishedArtifact => ({
        skill: skill.name,
        location: `${destination.url}//${destination.folder}/${skill.name}#${tagOf(skill)}`,
        digest: `sha256:${skill.staged.digest}`,
      }),
    );
    const named = namedIndex(index);
    if (dryRun) return artifacts;
    const options: GitOptions = { env: environment.env, timeoutMs: 120_000 };
    const work = privateTempFolder(tempDir ?? tmpdir(), "skillshelf-publish-");
    try {
      const git = (...args: string[]) => runGit(["-C", work, ...args], options, destination.url);
      await runGit(
        [
          "clone",
          "--quiet",
          ...(destination.branch === undefined ? [] : ["--branch", destination.branch]),
          "--",
          destination.url,
          work,
        ],
        options,
        destination.url,
      );
      const branch =
        destination.branch ?? ((await git("symbolic-ref", "--short", "HEAD")).trim() || "main");
      for (const skill of skills) {
        const tag = tagOf(skill);
        if ((await git("tag", "--list", tag)).trim() !== "")
          throw new SkillshelfError(
            "publish_tag_exists",
            `${destination.url} already has the tag ${tag}`,
            {
              details: { tag, url: destination.url },
            },
          );
        // a link in the repository never takes the skill's files out of the clone
        const parent = realFolder(work, destination.folder.split("/"));
        const folder = join(parent, skill.name);
        removeTree(folder);
        copyTree(skill.staged.dir, folder);
      }
      // the index the repository keeps is updated in the same commit as the skills it lists
      const indexPath = repositoryIndex(work, named);
      const indexDigest =
        indexPath === undefined
          ? undefined
          : await syncRepositoryIndex({
              work,
              folder: destination.folder,
              index: indexPath,
              skills,
              tempDir,
            });
      const paths = [destination.folder, ...(indexPath === undefined ? [] : [indexPath])];
      await git("add", "--all", "--", ...paths);
      const changed = await git("status", "--porcelain", "--", ...paths);
      // signed as git signs commits with an SSH key: what is tagged is always a signed commit
      const signing =
        signingKey === undefined
          ? []
          : ["-c", "gpg.format=ssh", "-c", `user.signingkey=${signingKey}`];
      if (changed.trim() !== "" || signingKey !== undefined)
        await git(
          ...signing,
          "commit",
          "--quiet",
          ...(signingKey === undefined ? [] : ["--allow-empty", "-S"]),
          "-m",
          `Publish ${skills.map(tagOf).join(", ")}`,
        );
      for (const skill of skills) await git("tag", tagOf(skill));
      await git(
        "push",
        "--quiet",
        "origin",
        `HEAD:refs/heads/${branch}`,
        ...skills.map((skill) => `refs/tags/${tagOf(skill)}`),
      );
      return indexDigest === undefined
        ? artifacts
        : [
            ...artifacts,
            { location: `${destination.url}//${indexPath}`, digest: `sha256:${indexDigest}` },
          ];
    } finally {
      removeTree(work);
    }
  },
};

// --- internal ---

/** A skill's tag: `<name>@<version>`. */
function tagOf(skill: PublishedSkill): string {
  return `${skill.name}@${skill.version}`;
}
