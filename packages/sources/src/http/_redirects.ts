import { SkillshelfError } from "@skillshelf/core";

/** The statuses that redirect. */
export const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Most redirects followed for one request (docs/decisions.md, "Network"). */
const MAX_REDIRECTS = 5;

/**
 * Where a redirect from `from` to `location` leads, or `download_redirect_refused`: past
 * `MAX_REDIRECTS`, to anything but `http:` or `https:`, or from `https:` down to `http:`.
 */
export function followedRedirect(from: URL, location: string, redirects: number): URL {
  const refuse = (problem: string): never => {
    throw new SkillshelfError(
      "download_redirect_refused",
      `downloading ${from.href} was redirected ${problem}`,
      { details: { url: from.href, location } },
    );
  };
  if (redirects >= MAX_REDIRECTS) refuse(`more than ${MAX_REDIRECTS} times`);
  if (!URL.canParse(location, from.href))
    refuse(`to ${JSON.stringify(location)}, which is not a URL`);
  const to = new URL(location, from);
  if (to.protocol !== "http:" && to.protocol !== "https:")
    refuse(`to ${to.protocol} (${to.href}); only http and https are followed`);
  if (from.protocol === "https:" && to.protocol === "http:")
    refuse(`from https to plain http (${to.href})`);
  return to;
}
