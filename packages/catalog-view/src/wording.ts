import type { CatalogWording } from "./types.js";

/** Every wording option filled in. */
export interface Wording {
  readonly host: string | undefined;
  readonly activation: "read" | "operator" | "model";
  readonly activateCall: string;
  readonly listCall: string;
  readonly installHint: string;
  readonly offerInstalls: string | false;
  readonly marketplaceConfigured: boolean;
  readonly features: Required<NonNullable<CatalogWording["features"]>>;
  readonly protocol: string | undefined;
  readonly sessionHeading: string;
  readonly sessionNote: string;
  readonly hiddenNote: string;
  /** Skills kept from the listing because they are not trusted here (`CatalogInput.hidden`). */
  readonly hidden: number;
}

export const DEFAULT_WORDING: Omit<
  Wording,
  "marketplaceConfigured" | "features" | "protocol" | "hidden"
> = {
  host: undefined,
  activation: "read",
  activateCall: 'activate_skill(name="{name}")',
  listCall: "list_skills",
  installHint: "ask the operator to install one",
  offerInstalls:
    "When no installed skill serves the task but a marketplace skill above genuinely does, you may instead ask the operator whether to install it.",
  sessionHeading: "Skills supplied for this session:",
  sessionNote:
    "Keep their source in mind: being supplied for this session does not make them installed.",
  hiddenNote:
    "{count} more skills are in folders or imported plugins not trusted here and are not listed.",
};

/** The wording with its defaults applied; `hidden` skills were kept from the listing for trust. */
export function resolveWording(
  wording: CatalogWording | undefined,
  hasOffers: boolean,
  hidden = 0,
): Wording {
  return {
    host: wording?.host ?? DEFAULT_WORDING.host,
    activation: wording?.activation ?? DEFAULT_WORDING.activation,
    activateCall: wording?.activateCall ?? DEFAULT_WORDING.activateCall,
    listCall: wording?.listCall ?? DEFAULT_WORDING.listCall,
    installHint: wording?.installHint ?? DEFAULT_WORDING.installHint,
    offerInstalls: wording?.offerInstalls ?? DEFAULT_WORDING.offerInstalls,
    marketplaceConfigured: wording?.marketplaceConfigured ?? hasOffers,
    features: {
      listTool: wording?.features?.listTool === true,
      trustSetting: wording?.features?.trustSetting === true,
      marketplaceApproval: wording?.features?.marketplaceApproval === true,
    },
    protocol: wording?.protocol,
    sessionHeading: wording?.sessionHeading ?? DEFAULT_WORDING.sessionHeading,
    sessionNote: wording?.sessionNote ?? DEFAULT_WORDING.sessionNote,
    hiddenNote: wording?.hiddenNote ?? DEFAULT_WORDING.hiddenNote,
    hidden,
  };
}

/**
 * The last instruction of every listing: how the model uses a skill that matches. `located`: the
 * page gives each skill's file (`<location>`), which `read` sends the model to.
 */
export function protocolLine(wording: Wording, located: boolean): string {
  if (wording.protocol !== undefined) return wording.protocol;
  const none = "If none match, do not mention skills.";
  if (wording.activation === "model") {
    const approval = wording.features.marketplaceApproval
      ? " Marketplace additions still require operator approval."
      : "";
    return `If one skill above matches the current task, load it now with ${wording.activateCall.replaceAll("{name}", "<name>")} and continue in the same turn.${approval} ${none}`;
  }
  if (wording.activation === "operator")
    return `If one skill above matches the current task, begin your reply with the line \`Suggested skill: /skill <name>\` (a comma-separated sequence, in order, when several compose), then continue the task in the same turn without it. ${none}`;
  return located
    ? `If one skill above matches the current task, read its file (its location above) and follow it in the same turn. ${none}`
    : `If one skill above matches the current task, follow its instructions in the same turn. ${none}`;
}

/** How the model opens one skill the listing could not carry, as a clause; "" when it cannot. */
export function openDirectly(wording: Wording, name: string): string {
  if (wording.activation === "model")
    return `; open it directly with ${wording.activateCall.replaceAll("{name}", name)}`;
  return wording.activation === "operator" ? `; open it directly with /skill ${name}` : "";
}

/** The list call with arguments, for example `list_skills(offset=20)`. */
export function listing(wording: Wording, args: string): string {
  return `${wording.listCall}(${args})`;
}
