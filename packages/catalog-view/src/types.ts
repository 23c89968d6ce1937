import type { Diagnostic, MatchMode } from "@skillshelf/core/listing";

/** A skill a model may activate. Give only model-visible skills. */
export interface CatalogSkill {
  readonly name: string;
  readonly description: string;
  /** Display label of where it comes from, for example `skillshelf`, `package` or `path`. */
  readonly source: string;
  readonly scope: string;
  /** Its `SKILL.md`; also the row's identity. */
  readonly path: string;
  /**
   * `ready` for the skills a host reads from its folders, libraries and packages; `session` for
   * skills supplied for this session only (explicit paths). Default: `session` for scope `cli`,
   * else `ready`.
   */
  readonly block?: "ready" | "session" | undefined;
  /** Its content no longer matches the hash recorded at install. */
  readonly drifted?: boolean | undefined;
  /** Whole phrases the query also matches. */
  readonly triggers?: readonly string[] | undefined;
}

/** An installed package that provides skills. */
export interface CatalogPackage {
  readonly name: string;
  /** The names of the skills it provides (the query matches them). */
  readonly skills: readonly string[];
  readonly scope: string;
  readonly origin: string;
  /** For example `ready`, `disabled`, `shadowed`, `damaged`, `requires trust`. */
  readonly state: string;
  readonly path: string;
}

/** A skill that can be installed from a package index. */
export interface CatalogOffer {
  readonly name: string;
  readonly description: string;
  readonly category?: string | undefined;
  readonly triggers?: readonly string[] | undefined;
  /** Where it installs from; also the row's identity. */
  readonly sourceUrl: string;
}

/** How the host names itself and how its model activates skills; every field has a default. */
export interface CatalogWording {
  /** The host's name in the listing ("Ready skills in <host>"). Default: none, the listing names no host. */
  readonly host?: string | undefined;
  /**
   * How the model uses a skill that matches. `read` (default): it reads the skill's file itself, as
   * Agent Skills hosts with file access do (the XML listing gives each `<location>`; without
   * locations the line only says to follow a matching skill). `model`: it activates installed
   * skills with `activateCall`. `operator`: Skillshelf's own protocol, for a host that runs it —
   * the model suggests skills (`Suggested skill: /skill <name>`) and only the operator runs them.
   */
  readonly activation?: "read" | "operator" | "model" | undefined;
  /** The call that activates a skill, with `{name}` for its name. Default `activate_skill(name="{name}")`. */
  readonly activateCall?: string | undefined;
  /** The call that lists skills, taking `query` and `offset`. Default `list_skills`. */
  readonly listCall?: string | undefined;
  /** How to install a marketplace skill, shown in that block's header. Default `ask the operator to install one`. */
  readonly installHint?: string | undefined;
  /** The sentence that lets the model offer an install, or `false` for none. */
  readonly offerInstalls?: string | false | undefined;
  /** Whether a marketplace is configured, for the empty listing's wording. Default: offers were given. */
  readonly marketplaceConfigured?: boolean | undefined;
  /** The listing's last instruction, replacing the one `activation` picks. */
  readonly protocol?: string | undefined;
  /** The heading of skills supplied for this session. Default "Skills supplied for this session:". */
  readonly sessionHeading?: string | undefined;
  /** The sentence after them. Default: that being supplied does not make them installed. */
  readonly sessionNote?: string | undefined;
  /**
   * The note shown only when `CatalogInput.hidden` is above 0, `{count}` the number. Default "{count}
   * more skills are in folders or imported plugins not trusted here and are not listed."
   */
  readonly hiddenNote?: string | undefined;
  /**
   * What the host has beyond the listing; each sentence about one appears only when it is true
   * (default false for all): a listing tool (`listCall`) the model can page and filter with, a
   * trust-imports setting, and an approval step for marketplace installs.
   */
  readonly features?:
    | {
        readonly listTool?: boolean | undefined;
        readonly trustSetting?: boolean | undefined;
        readonly marketplaceApproval?: boolean | undefined;
      }
    | undefined;
}

/** Input of `buildCatalogView`. */
export interface CatalogInput {
  readonly skills?: readonly CatalogSkill[] | undefined;
  readonly packages?: readonly CatalogPackage[] | undefined;
  readonly marketplace?: readonly CatalogOffer[] | undefined;
  /** Keep the rows matching every word of this query (or, failing that, any word). */
  readonly query?: string | undefined;
  /** Relevance scores by row name (higher first) and who judged them; rows are reordered within their block, never removed. */
  readonly relevance?:
    | {
        readonly scores: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
        readonly source: string;
      }
    | undefined;
  /** First row of the page, into the matching rows. Default 0. */
  readonly offset?: number | undefined;
  /** Most rows on the page, 1–200. Default: all. */
  readonly limit?: number | undefined;
  /** Most UTF-8 bytes of text. Default: no limit. */
  readonly budget?: number | undefined;
  /**
   * How a page that does not fit is made to: `drop` (default) keeps whole rows and drops the
   * last; `shorten` first cuts the longest descriptions (at a word boundary, with `…`, never below
   * `SHORTEN_FLOOR` characters), then drops rows.
   */
  readonly fit?: "drop" | "shorten" | undefined;
  readonly format?: CatalogFormat | undefined;
  /**
   * Whether the XML format gives each skill's and package's file (`<location>`). `false` keeps
   * absolute paths out of what a model reads, for a host that activates skills by name. Default true.
   */
  readonly locations?: boolean | undefined;
  readonly wording?: CatalogWording | undefined;
  /**
   * How many skills the host kept out of `skills` because they are not trusted (for example the
   * `count` of a loader's `untrusted_hidden`): a note says so only when this is above 0.
   */
  readonly hidden?: number | undefined;
}

export type CatalogFormat = "text" | "xml" | "markdown";

/** The four blocks, in listing order, which is also the order overflow drops them. */
export type CatalogBlock = "ready" | "session" | "package" | "marketplace";

/** One row as shown. */
export interface CatalogRow {
  readonly kind: CatalogBlock;
  readonly name: string;
  /** Its line in the text format. */
  readonly line: string;
  readonly drifted: boolean;
  /** Stable identity: `ready:<path>`, `session:<path>`, `package:<scope>:<path>`, `marketplace:<sourceUrl>`. */
  readonly key: string;
}

/** What `buildCatalogView` returns. */
export interface CatalogView {
  /** At most `budget` UTF-8 bytes, always; empty when not even the compact fallback fits. */
  readonly text: string;
  /** False when the budget could not carry even the compact fallback (the text is then empty). */
  readonly fits: boolean;
  /** The rows on this page whose descriptions the `shorten` fit cut. */
  readonly shortened: readonly string[];
  /** The rows on this page, in order. */
  readonly rows: readonly CatalogRow[];
  /** Rows matching the query (every row without one). */
  readonly total: number;
  readonly shown: number;
  /** Where the next page starts, or `undefined` when this page reaches the end. Always past `offset`. */
  readonly nextOffset: number | undefined;
  readonly filtered: boolean;
  readonly matchMode: MatchMode | null;
  /** The budget, not `limit`, cut this page short. */
  readonly budgetLimited: boolean;
  /** Who judged the relevance order, when it changed the order of a row shown. */
  readonly rankedBy: string | undefined;
  readonly driftedNames: readonly string[];
  /** Rows refused or changed to be shown safely. */
  readonly diagnostics: readonly Diagnostic[];
}
