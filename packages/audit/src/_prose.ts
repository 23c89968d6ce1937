import { domainToUnicode } from "node:url";
import { remove as skeleton } from "confusables";

// what a skill may tell an agent to keep from the user: something it does, not how it reports
const ACTION =
  "(?:run|runs|ran|execute[sd]?|install(?:s|ed)?|download(?:s|ed)?|fetch(?:es|ed)?|send|sends|sent|upload(?:s|ed)?|delete[sd]?|remove[sd]?|modif(?:y|ies|ied)|cop(?:y|ies|ied)|writ(?:e|es|ten)|post(?:s|ed)?|add(?:s|ed)?|read(?:s)?|access(?:es|ed)?|collect(?:s|ed)?|exfiltrat\\w*|transmit\\w*)";
const TELL =
  "(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|show(?:ing)?|alert(?:ing)?|notify(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|report(?:ing)?|say(?:ing)?|let)";

/**
 * A line that tells the agent to keep an action from the user: "do not mention that you ran
 * it", "quietly run", "send … without telling the user", "hide this from the user", an HTML
 * comment addressed to the assistant. How a skill reports is its own business: "don't narrate
 * each tool call", "do not show the user the tour until it validates", and text describing code
 * that fails "without informing the user" are not this.
 */
export const CONCEALMENT: RegExp = new RegExp(
  [
    String.raw`\b(?:do\s+not|don't|dont|never|avoid|must\s+not)\s+${TELL}\s+(?:(?:this|it|that|anything)\s+to\s+)?(?:the\s+)?user\b`,
    String.raw`\b(?:do\s+not|don't|never)\s+${TELL}\s+(?:this|that|it|anything|them|the\s+\w+)\s+(?:to\s+the\s+user|in\s+(?:your|the)\s+(?:reply|response|answer|summary|output|chat))`,
    String.raw`\b(?:do\s+not|don't|never)\s+${TELL}\s+(?:to\s+the\s+user\s+)?that\s+you\b`,
    String.raw`\b(?:quietly|silently|secretly|covertly|discreetly|stealthily|invisibly)\s+${ACTION}\b`,
    String.raw`\b${ACTION}\b[^.!?\n]{0,80}\bwithout\s+(?:telling|informing|notifying|asking|alerting|showing)\s+(?:the\s+)?user\b`,
    String.raw`\b(?:hide|conceal|keep)\s+(?:this|it|that|(?:the|these|any|all|its|their)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:hidden\s+|secret\s+)?from\s+the\s+user\b`,
    String.raw`\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|other)\s+(?:instructions|rules|guidelines)\b`,
    String.raw`<!--[^>]*\b(?:assistant|claude|llm|language\s+model|ai\s+agent|copilot|codex|gemini)\b[^>]*-->`,
  ].join("|"),
  "i",
);

// reporting choices a skill makes, which read like concealment by the letter
const PRESENTATION =
  /\b(?:each|every)\s+(?:tool\s+call|step|command|file|change)\b|\bnarrat|\bshow\s+the\s+user\s+the\s+[\w-]+\s+until\b|\bthe\s+user\s+(?:has\s+)?(?:asked|requested)\b/i;

/** Whether a `CONCEALMENT` match on `line` is one: not a choice of how to report, nor quoted text. */
export function concealsAction(line: string, match: RegExpExecArray): boolean {
  if (match[0].startsWith("<!--")) return true;
  // "do not silently remove it" asks for the opposite of concealment
  const negated = /\b(?:not|never|n't|nor)\s+$/i.test(line.slice(0, match.index));
  return !negated && !PRESENTATION.test(line) && !quoted(line, match.index);
}

/** Whether `index` of `line` is inside a quotation ("…" or “…”): text a skill cites, not says. */
function quoted(line: string, index: number): boolean {
  const before = line.slice(0, index);
  const straight = (before.match(/"/g) ?? []).length;
  const opened = (before.match(/\u201c/g) ?? []).length - (before.match(/\u201d/g) ?? []).length;
  return straight % 2 === 1 || opened > 0;
}

/** A line that claims its instructions outrank the user's or the system's. */
export const PRIORITY_CLAIM: RegExp = new RegExp(
  [
    String.raw`\b(?:these|this\s+skill'?s?|the\s+following|my|our)\s+(?:instructions|rules|directives|steps)\s+(?:take|have|get|hold)\s+(?:absolute\s+|the\s+highest\s+|highest\s+|top\s+|full\s+)?(?:priority|precedence)\s+over\b`,
    String.raw`\b(?:override|overrides|supersede|supersedes|outrank|outranks|take\s+precedence\s+over|takes\s+precedence\s+over)\s+(?:any|all|the|your)?\s*(?:other\s+)?(?:user|system|developer|operator|previous|prior|safety)\s*(?:'s)?\s+(?:instructions|prompts?|messages?|rules|requests|guidelines|policies)\b`,
    String.raw`\b(?:ignore|disregard)\s+(?:any|all|the)?\s*(?:instructions|requests|objections|messages)\s+(?:from|of|by)\s+the\s+(?:user|system|operator)\b`,
    String.raw`\beven\s+if\s+the\s+(?:user|system\s+prompt|operator)\s+(?:says|asks|tells|objects|refuses|forbids|disagrees)\b`,
    String.raw`\b(?:system|developer)\s+(?:prompt|instructions)\s+(?:is|are|were)\s+(?:void|invalid|outdated|superseded|revoked|cancelled)\b`,
  ].join("|"),
  "i",
);

/** A line that sends the agent to fetch text from a host and do what it says. */
export const REMOTE_INSTRUCTIONS: RegExp = new RegExp(
  [
    String.raw`\b(?:fetch|download|read|load|retrieve|get|open|visit|curl|request)\b[^.\n]{0,80}\bhttps?:\/\/\S+[^\n]{0,80}?\b(?:and|then)\s+(?:follow|execute|obey|apply|run|carry\s+out|do\s+what)\b`,
    String.raw`\b(?:follow|obey|execute|carry\s+out|apply)\s+(?:the\s+|any\s+)?(?:instructions|steps|commands|directions|directives)\s+(?:at|from|in|found\s+at|served\s+at|returned\s+by)\s+(?:https?:\/\/|the\s+(?:url|link|page|gist|endpoint|response))`,
    String.raw`\b(?:instructions|commands|next\s+steps)\s+(?:are|is)\s+(?:hosted|published|kept|served|posted)\s+(?:at|on)\s+https?:\/\/`,
  ].join("|"),
  "i",
);

// the host of a URL written anywhere: a non-ASCII or punycode label is what this rule reads
export const URL_WITH_UNUSUAL_HOST: RegExp =
  /\bhttps?:\/\/(?:[^\s/?#@]*@)?([^\s/?#:]*(?:[^\p{ASCII}]|xn--)[^\s/?#:]*)/iu;

/**
 * Whether a URL's host (the match's first group) is made to look like another: a label mixing
 * Latin letters with another script's, or one written in another script whose letters are all
 * Latin look-alikes (`аpple` in Cyrillic), after punycode is decoded.
 */
export function deceptiveHost(_line: string, match: RegExpExecArray): boolean {
  const host = domainToUnicode((match[1] ?? "").toLowerCase()) || (match[1] ?? "");
  return host.split(".").some((label) => {
    const letters = [...label].filter((character) => /\p{L}/u.test(character));
    if (letters.length === 0 || letters.every((character) => character <= "\x7f")) return false;
    const latin = letters.some((character) => /\p{Script=Latin}/u.test(character));
    const other = letters.some((character) => !/\p{Script=Latin}/u.test(character));
    if (latin && other) return true;
    // Latin with accents is a name in its own language; another script throughout is deceptive
    // when every letter of it reads as a Latin one
    if (!other) return false;
    const plain = skeleton(label);
    return /^\p{ASCII}+$/u.test(plain) && plain !== label;
  });
}
