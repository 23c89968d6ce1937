/** The arguments of one invocation. */
export interface PromptArguments {
  readonly args: readonly string[];
  /** The raw argument text for `$ARGUMENTS`; the joined args when not given. */
  readonly raw?: string | undefined;
}

/**
 * Fill a template's placeholders in one left-to-right pass; substituted text is never expanded
 * again. `$1`, `$2`, … (missing ones are empty), `$@` (all args joined by spaces), `$ARGUMENTS`
 * (the raw text, byte for byte), `${N}`, `${N:-default}`, `${@:-default}`, `${ARGUMENTS:-default}`
 * (the default when the value is empty), `${@:N}` and `${@:N:L}` (args from the Nth, L of them).
 * Anything else, an unclosed `${` included, stays as written. Time is linear in the template.
 */
export function substituteArguments(template: string, invocation: PromptArguments): string {
  const { args } = invocation;
  const joined = args.join(" ");
  const raw = invocation.raw ?? joined;
  const out: string[] = [];
  let copied = 0;
  for (const match of placeholders(template)) {
    out.push(template.slice(copied, match.start), resolve(match.placeholder, args, joined, raw));
    copied = match.end;
  }
  out.push(template.slice(copied));
  return out.join("");
}

/** What a template asks of its caller: how many positional arguments, and whether it takes the rest. */
export interface TemplateParameters {
  /** The highest `$N` or `${N…}` it uses (0 when none). */
  readonly positions: number;
  /** It uses `$@`, `$ARGUMENTS` or a `${@:N}` slice: the argument text as a whole. */
  readonly rest: boolean;
}

/** The placeholders `template` uses, read by the same scan `substituteArguments` fills them with. */
export function templateParameters(template: string): TemplateParameters {
  let positions = 0;
  let rest = false;
  for (const { placeholder } of placeholders(template)) {
    if (placeholder.kind === "arg") positions = Math.max(positions, placeholder.position);
    else rest = true;
  }
  return { positions, rest };
}

// --- internal ---

type Placeholder =
  | { readonly kind: "arg"; readonly position: number; readonly fallback?: string }
  | { readonly kind: "all"; readonly fallback?: string }
  | { readonly kind: "raw"; readonly fallback?: string }
  | { readonly kind: "slice"; readonly from: number; readonly length?: number };

interface Match {
  readonly placeholder: Placeholder;
  /** Index just past the placeholder. */
  readonly end: number;
}

/** Every placeholder of `template` left to right, where it starts; time linear in the template. */
function* placeholders(template: string): Generator<Match & { readonly start: number }> {
  const lastClose = template.lastIndexOf("}");
  let index = template.indexOf("$");
  while (index !== -1) {
    const match =
      template[index + 1] === "{"
        ? matchBraced(template, index, lastClose)
        : matchBare(template, index);
    if (match === undefined) {
      index = template.indexOf("$", index + 1);
      continue;
    }
    yield { ...match, start: index };
    index = template.indexOf("$", match.end);
  }
}

const BARE = /\$(?:([1-9]\d*)|(@)|(ARGUMENTS))/y;
// a braced placeholder up to its `}`, or up to `:-` when a default follows; bounded, so O(1) each
const BRACED_HEAD = /\$\{(?:([1-9]\d*)|(@)|(ARGUMENTS))(?:(:-)|:(\d+)(?::(\d+))?\}|\})/y;

function matchBare(template: string, index: number): Match | undefined {
  BARE.lastIndex = index;
  const match = BARE.exec(template);
  if (match === null) return undefined;
  const end = index + match[0].length;
  if (match[1] !== undefined)
    return { placeholder: { kind: "arg", position: Number(match[1]) }, end };
  return { placeholder: { kind: match[2] === undefined ? "raw" : "all" }, end };
}

function matchBraced(template: string, index: number, lastClose: number): Match | undefined {
  // with no `}` after this point the rest of the template holds no braced placeholder
  if (index > lastClose) return undefined;
  BRACED_HEAD.lastIndex = index;
  const match = BRACED_HEAD.exec(template);
  if (match === null) return undefined;
  const [text, digits, at, , dash, from, length] = match;
  const headEnd = index + text.length;
  let fallback: string | undefined;
  let end = headEnd;
  if (dash !== undefined) {
    const close = template.indexOf("}", headEnd);
    if (close === -1) return undefined;
    fallback = template.slice(headEnd, close);
    end = close + 1;
  }
  if (from !== undefined) {
    if (at === undefined) return undefined;
    return {
      placeholder: {
        kind: "slice",
        from: Number(from),
        ...(length === undefined ? {} : { length: Number(length) }),
      },
      end,
    };
  }
  const withFallback = fallback === undefined ? {} : { fallback };
  if (digits !== undefined)
    return { placeholder: { kind: "arg", position: Number(digits), ...withFallback }, end };
  return { placeholder: { kind: at === undefined ? "raw" : "all", ...withFallback }, end };
}

function resolve(
  placeholder: Placeholder,
  args: readonly string[],
  joined: string,
  raw: string,
): string {
  switch (placeholder.kind) {
    case "arg": {
      const value = args[placeholder.position - 1] ?? "";
      return value === "" && placeholder.fallback !== undefined ? placeholder.fallback : value;
    }
    case "all":
      return joined === "" && placeholder.fallback !== undefined ? placeholder.fallback : joined;
    case "raw":
      // the default applies when there are no arguments at all
      return args.length === 0 && placeholder.fallback !== undefined ? placeholder.fallback : raw;
    case "slice": {
      const start = Math.max(placeholder.from - 1, 0);
      const end = placeholder.length === undefined ? undefined : start + placeholder.length;
      return args.slice(start, end).join(" ");
    }
  }
}
