import type { ShownRow } from "./_rows.js";
import { escapeMarkdown, escapeXml, oneLine } from "./_sanitize.js";
import type { CatalogBlock, CatalogFormat } from "./types.js";
import { protocolLine, type Wording } from "./wording.js";

/** Everything on a page besides its rows. */
export interface Frame {
  readonly wording: Wording;
  /** The page note, or "" for none. */
  readonly note: string;
  /** Whether the XML format names each row's file (`<location>`). */
  readonly locations: boolean;
}

/** Render one page in a format. The rows are already in listing order. */
export function renderPage(format: CatalogFormat, page: readonly ShownRow[], frame: Frame): string {
  const blocks = groupByBlock(page);
  const body =
    format === "xml"
      ? xmlBody(blocks, frame)
      : format === "markdown"
        ? markdownBody(blocks, frame.wording)
        : textBody(blocks, frame.wording);
  const lines = [...body];
  const drift = driftFooter(page);
  if (drift !== "") lines.push("", drift);
  lines.push("", protocolLine(frame.wording, format === "xml" && frame.locations));
  if (blocks.marketplace.length > 0 && frame.wording.offerInstalls !== false)
    lines.push(frame.wording.offerInstalls);
  if (frame.note !== "") lines.push(frame.note);
  return lines.join("\n");
}

/** The listing when there are no rows at all and no query. */
export function emptyText(wording: Wording): string {
  const none = wording.marketplaceConfigured
    ? `No skills are available${inHost(wording)} and no additional marketplace skills were found.`
    : `No skills are available${inHost(wording)}.`;
  const hidden = hiddenFooter(wording);
  return hidden === undefined ? none : `${none}\n${hidden}`;
}

// --- internal ---

function lineOf(row: ShownRow): string {
  return row.line;
}

type Blocks = Record<CatalogBlock, ShownRow[]>;

function groupByBlock(page: readonly ShownRow[]): Blocks {
  const blocks: Blocks = { ready: [], session: [], package: [], marketplace: [] };
  for (const row of page) blocks[row.block].push(row);
  return blocks;
}

/** ` in <host>`, or nothing when the host gave no name. */
function inHost(wording: Wording): string {
  return wording.host === undefined ? "" : ` in ${wording.host}`;
}

/** The note about skills kept from the listing for trust, only when some were. */
function hiddenFooter(wording: Wording): string | undefined {
  if (wording.hidden === 0) return undefined;
  const trust = wording.features.trustSetting
    ? " The trust-imports setting does not install or activate loose files."
    : "";
  return `${wording.hiddenNote.replaceAll("{count}", String(wording.hidden))}${trust}`;
}

function textBody(blocks: Blocks, wording: Wording): string[] {
  const lines = [
    "Available skills.",
    "",
    `Ready skills${inHost(wording)} (${blocks.ready.length}):`,
  ];
  lines.push(...(blocks.ready.length === 0 ? ["- none"] : blocks.ready.map(lineOf)));
  if (blocks.session.length > 0) {
    lines.push("", wording.sessionHeading, ...blocks.session.map(lineOf));
    lines.push(wording.sessionNote);
  }
  if (blocks.package.length > 0)
    lines.push(
      "",
      `Installed packages providing skills (${blocks.package.length}):`,
      ...blocks.package.map(lineOf),
    );
  const hidden = hiddenFooter(wording);
  if (hidden !== undefined) lines.push("", hidden);
  if (blocks.marketplace.length > 0) {
    lines.push(
      "",
      `Marketplace (additional skills available to install; ${wording.installHint}):`,
      ...blocks.marketplace.map(lineOf),
    );
  }
  return lines;
}

function xmlBody(blocks: Blocks, frame: Frame): string[] {
  const { wording } = frame;
  const element = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
  const location = (path: string) => (frame.locations ? [element("location", path)] : []);
  const lines = ["<available_skills>"];
  for (const row of [...blocks.ready, ...blocks.session]) {
    lines.push(
      "<skill>",
      element("name", row.name),
      element("description", row.description),
      ...location(row.path),
    );
    if (row.drifted) lines.push(element("status", "drifted"));
    lines.push("</skill>");
  }
  lines.push("</available_skills>");
  if (blocks.package.length > 0) {
    lines.push("<skill_packages>");
    for (const row of blocks.package) {
      lines.push(
        "<package>",
        element("name", row.name),
        element("scope", row.scope),
        element("origin", row.origin),
        element("state", row.state),
        ...location(row.path),
        "</package>",
      );
    }
    lines.push("</skill_packages>");
  }
  const hidden = hiddenFooter(wording);
  if (hidden !== undefined) lines.push(`<note>${escapeXml(hidden)}</note>`);
  if (blocks.marketplace.length > 0) {
    lines.push(`<marketplace_skills hint="${escapeXml(wording.installHint)}">`);
    for (const row of blocks.marketplace) {
      lines.push("<skill>", element("name", row.name), element("description", row.description));
      if (row.category !== "") lines.push(element("category", row.category));
      lines.push("</skill>");
    }
    lines.push("</marketplace_skills>");
  }
  return lines;
}

function markdownBody(blocks: Blocks, wording: Wording): string[] {
  const md = escapeMarkdown;
  const lines = [
    "## Available skills",
    "",
    `### Ready${md(inHost(wording))} (${blocks.ready.length})`,
  ];
  lines.push(
    ...(blocks.ready.length === 0
      ? ["- none"]
      : blocks.ready.map(
          (row) =>
            `- **${md(row.name)}**${row.drifted ? " (drifted)" : ""}: ${md(row.description)} (source: ${md(row.source)}; scope: ${md(row.scope)})`,
        )),
  );
  if (blocks.session.length > 0) {
    lines.push(
      "",
      "### Supplied for this session",
      ...blocks.session.map(
        (row) =>
          `- **${md(row.name)}**: ${md(row.description)} (file: \`${row.path.replaceAll("`", "'")}\`)`,
      ),
    );
  }
  if (blocks.package.length > 0) {
    lines.push("", `### Installed packages (${blocks.package.length})`);
    lines.push(
      ...blocks.package.map(
        (row) =>
          `- **${md(row.name)}**: scope ${md(row.scope)}; origin ${md(row.origin)}; state ${md(row.state)}`,
      ),
    );
  }
  const hidden = hiddenFooter(wording);
  if (hidden !== undefined) lines.push("", md(hidden));
  if (blocks.marketplace.length > 0) {
    lines.push("", `### Marketplace (${md(wording.installHint)})`);
    lines.push(
      ...blocks.marketplace.map(
        (row) =>
          `- **${md(row.name)}**${row.category === "" ? "" : ` [${md(row.category)}]`}: ${md(row.description)}`,
      ),
    );
  }
  return lines;
}

/** The footer naming drifted skills on this page: at most six names, then a count. */
function driftFooter(page: readonly ShownRow[]): string {
  const names = page.filter((row) => row.drifted).map((row) => oneLine(row.name, 64));
  if (names.length === 0) return "";
  const listed =
    names.length > 6
      ? `${names.slice(0, 6).join(", ")} and ${names.length - 6} more`
      : names.join(", ");
  return `Marked [drifted]: ${listed} no longer ${names.length === 1 ? "matches" : "match"} the content hash recorded at install; ${names.length === 1 ? "it still loads" : "they still load"} as on disk now.`;
}
