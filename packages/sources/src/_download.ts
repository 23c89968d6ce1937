import { SkillshelfError } from "@skillshelf/core";
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
    throw new SkillshelfError(
      response.signed ? "auth_refused" : "auth_required",
      `downloading ${answered.href} answered HTTP ${response.status}: ${response.signed ? "the credentials configured" : "no credentials are configured"} for ${answered.host}`,
      { details: { url: answered.href, status: response.status, host: answered.host } },
    );
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
