import type { CatalogWording } from "./types.js";

/** Every wording option filled in. */
export interface Wording {
  readonly host: string | undefined;
  readonly activation: "operator" | "model";
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
  activation: "operator",
  activateCall: 'activate_skill(name="{name}")',
  listCall: "list_skills",
  installHint: "/skill <name> offers to install",
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

/** The last instruction of every listing: how the model uses a skill that matches. */
export function protocolLine(wording: Wording): string {
  if (wording.protocol !== undefined) return wording.protocol;
  if (wording.activation === "model") {
    const approval = wording.features.marketplaceApproval
      ? " Marketplace additions still require operator approval."
      : "";
    return `If one skill above matches the current task, load it now with ${activation(wording, "<name>")} and continue in the same turn.${approval} If none match, do not mention skills.`;
  }
  return "If one skill above matches the current task, begin your reply with the line `Suggested skill: /skill <name>` (a comma-separated sequence, in order, when several compose), then continue the task in the same turn without it. If none match, do not mention skills.";
}

/** How to activate one skill, in the host's terms. */
export function activation(wording: Wording, name: string): string {
  return wording.activation === "model"
    ? wording.activateCall.replaceAll("{name}", name)
    : `/skill ${name}`;
}

/** The list call with arguments, for example `list_skills(offset=20)`. */
export function listing(wording: Wording, args: string): string {
  return `${wording.listCall}(${args})`;
}
