import { SkillshelfError } from "@skillshelf/core";
import { authFailure } from "./http/_failure.js";
import type { HttpClient, OriginCredentials } from "./http/client.js";

/**
 * Download `url` through `http` into memory, refusing more than `maxBytes` (by its declared
 * length, then while reading). Each origin on the way gets only its own `credentials`. A 401 or
 * 403 is `auth_required` or `auth_refused` (whether credentials went with the request), another
 * status `download_failed`, naming the URL.
 */
export async function download(
  http: HttpClient,
  url: string,
  options: {
    readonly maxBytes: number;
    readonly signal: AbortSignal;
    readonly credentials?: OriginCredentials | undefined;
  },
): Promise<Buffer> {
  const response = await http.request(new URL(url), options);
  const answered = response.url;
  if (response.status === 401 || response.status === 403) {
    response.discard();
    throw authFailure(`downloading ${answered.href}`, response, {
      url: answered.href,
      host: answered.host,
    });
  }
  if (!response.ok) {
    response.discard();
    throw new SkillshelfError(
      "download_failed",
      `downloading ${answered.href} answered HTTP ${response.status}`,
      { details: { url: answered.href, status: response.status } },
    );
  }
  return response.bytes(options.maxBytes);
}
