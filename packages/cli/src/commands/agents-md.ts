import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { buildCatalogView, type CatalogSkill } from "@skillshelf/catalog-view";
import { decodeText, readRegularFile, SkillshelfError, writeFileAtomic } from "@skillshelf/core";
import { optionalSkills } from "@skillshelf/lifecycle";
import { isModelVisible } from "@skillshelf/skills-loader";
import type { CommandInput } from "../command.js";
import { printJson } from "../context.js";
import { displayPath, plural } from "../format.js";
import { resourcesOf } from "../resources.js";

/** The lines around the block this command owns; everything outside them is the file's own. */
const START =
  "<!-- skillshelf:skills (written by `skillshelf agents-md`; edits inside are replaced) -->";
const END = "<!-- /skillshelf:skills -->";
/** How much of AGENTS.md the listing may take unless `--budget` says: Codex reads 32 KiB of it. */
const DEFAULT_BUDGET = 8000;
const MAX_FILE_BYTES = 1024 * 1024;

type AgentsMdValues = {
  readonly output: string | undefined;
  readonly budget: number | undefined;
  readonly check: boolean;
  readonly json: boolean;
};

/**
 * `agents-md`: write the project's skills as an `<available_skills>` block into `AGENTS.md` (or
 * `--output`), between markers: rewritten in place, the rest of the file kept byte for byte. The
 * block lists the skills the project gives every contributor (its library and its packages, not
 * anyone's own), within `--budget` bytes, without local paths, and tells the model to load one
 * with `skillshelf read <name>`. `--check`: write nothing, exit 1 when the file is not up to date.
 */
export function runAgentsMd(input: CommandInput<AgentsMdValues>): number {
  const { io, values } = input;
  const context = input.context();
  const { environment } = context;
  const path = resolve(environment.cwd, values.output ?? join(environment.project, "AGENTS.md"));
  const loaded = resourcesOf(context).read(environment.cwd).load("skill");
  // a committed file is every contributor's: the project's optional skills are not in it
  const optional = new Set(optionalSkills(environment));
  const skills = loaded.items
    .filter(isModelVisible)
    .filter((skill) => skill.scope === "project" || skill.owner?.scope === "project")
    .filter((skill) => !optional.has(skill.name))
    .map(
      (skill): CatalogSkill => ({
        name: skill.name,
        description: skill.description,
        source: skill.source,
        scope: skill.scope,
        // never shown (no locations): relative, so nothing of this machine could be
        path: relative(environment.project, skill.path),
      }),
    );
  const view = buildCatalogView({
    skills,
    format: "xml",
    locations: false,
    budget: values.budget ?? DEFAULT_BUDGET,
    fit: "shorten",
    wording: {
      activation: "model",
      activateCall: "skillshelf read {name}",
      protocol:
        "When a task matches a skill's description, run `skillshelf read <name>` in a shell and follow the instructions it prints before doing the task.",
    },
  });
  // a listing that cannot fit is not written over the one there
  if (!view.fits)
    throw new SkillshelfError(
      "catalog_budget_too_small",
      `a budget of ${values.budget ?? DEFAULT_BUDGET} bytes holds not even the listing's compact form`,
      { path },
    );
  const before = existsSync(path) ? currentText(path) : undefined;
  const text = withBlock(before ?? "", `${START}\n${view.text}\n${END}`, path);
  const changed = text !== before;
  const left = view.total - view.shown;
  if (!values.check && changed) writeFileAtomic({ path, text, expected: before });
  const ok = !(values.check && changed);
  if (values.json) {
    printJson(io, context, {
      ok,
      path,
      changed,
      written: changed && !values.check,
      skills: view.shown,
      shortened: view.shortened,
      left,
    });
    return ok ? 0 : 1;
  }
  const shown = displayPath(path, context.style);
  const cut = [
    ...(view.shortened.length === 0 ? [] : [`${view.shortened.length} shortened`]),
    ...(left === 0 ? [] : [`${left} left out by the budget`]),
  ];
  const what = `${plural(view.shown, "skill")}${cut.length === 0 ? "" : ` (${cut.join(", ")})`}`;
  io.stdout(
    values.check
      ? changed
        ? `${shown} is not up to date: skillshelf agents-md writes ${what}\n`
        : `${shown} is up to date: ${what}\n`
      : changed
        ? `wrote ${what} into ${shown}\n`
        : `${shown} is up to date: ${what}\n`,
  );
  return ok ? 0 : 1;
}

// --- internal ---

/** The file's text, refused when it is not UTF-8 (`file_not_utf8`): nothing is written over it. */
function currentText(path: string): string {
  const decoded = decodeText(readRegularFile(path, MAX_FILE_BYTES));
  if (!decoded.ok)
    throw new SkillshelfError("file_not_utf8", `${path} is not UTF-8 text`, { path });
  return decoded.text;
}

/**
 * `text` with the block between the markers replaced by `block`, or `block` appended after a blank
 * line when there is none. Markers that do not pair (one alone, two starts) are refused
 * (`agents_md_markers_invalid`): guessing could replace what the person wrote.
 */
function withBlock(text: string, block: string, path: string): string {
  const starts = occurrences(text, START);
  const ends = occurrences(text, END);
  if (starts.length === 0 && ends.length === 0) {
    if (text === "") return `${block}\n`;
    return `${text}${text.endsWith("\n") ? "" : "\n"}\n${block}\n`;
  }
  const [start] = starts;
  const [end] = ends;
  if (
    starts.length !== 1 ||
    ends.length !== 1 ||
    start === undefined ||
    end === undefined ||
    end < start
  )
    throw new SkillshelfError(
      "agents_md_markers_invalid",
      `${path} holds the skillshelf markers unpaired (${starts.length} start, ${ends.length} end)`,
      { path, details: { starts: starts.length, ends: ends.length } },
    );
  return `${text.slice(0, start)}${block}${text.slice(end + END.length)}`;
}

function occurrences(text: string, marker: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length))
    found.push(at);
  return found;
}
