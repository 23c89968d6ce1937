import { isLoopbackHost, isSkillshelfError, SkillshelfError } from "@skillshelf/core";
import type { HttpClient } from "./client.js";

/** A user and password (or token) kept for one host. */
interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/** What answering a server's `401` takes. */
export interface ChallengeAnswer {
  /** The `WWW-Authenticate` header of the 401. */
  readonly challenge: string | undefined;
  /** The server that asked (its origin is what the credentials were kept for). */
  readonly server: URL;
  /** The user's credentials for that server: never those of any other host. */
  readonly credentials: BasicCredentials | undefined;
  /** The access asked for at a token service (`repository:team/pdf:pull`): ours, never the server's. */
  readonly scope: string;
  readonly http: HttpClient;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The `Authorization` a 401's challenge asks for. `Basic` is answered with the server's own
 * credentials. `Bearer realm=…` (the token flow of OCI registries) sends those same credentials
 * — the server's, whatever host the realm names, since a server may name any realm it likes — to
 * the realm over https (plain http only on this machine, else `token_realm_insecure`), and the
 * token it returns goes back to the server alone. A failure at the token service is
 * `token_failed` naming the realm (a proxy's failure keeps its own code).
 */
export async function answerChallenge(answer: ChallengeAnswer): Promise<string | undefined> {
  const { challenge = "", server, credentials } = answer;
  const basic =
    credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
  const fields = challengeFields(challenge);
  if (!/^bearer\s/i.test(challenge) || fields.realm === undefined) return basic;
  const realm = tokenRealm(fields.realm, server);
  if (fields.service !== undefined) realm.searchParams.set("service", fields.service);
  realm.searchParams.set("scope", answer.scope);
  const failed = (problem: string, details: Record<string, unknown> = {}, cause?: unknown) =>
    new SkillshelfError(
      "token_failed",
      `the token service ${realm.origin}${realm.pathname} of ${server.host} ${problem}`,
      {
        cause,
        details: { url: `${realm.origin}${realm.pathname}`, host: server.host, ...details },
      },
    );
  let body: Buffer;
  try {
    const response = await answer.http.request(realm, {
      signal: answer.signal,
      // the credentials go to the realm itself, never on to where it might redirect
      credentials: async (url) =>
        basic !== undefined && url.origin === realm.origin ? { authorization: basic } : undefined,
    });
    if (!response.ok) {
      response.discard();
      throw failed(
        `answered HTTP ${response.status} ${basic === undefined ? "with no credentials kept for the registry" : "to the credentials kept for the registry"}`,
        { status: response.status, signed: basic !== undefined },
      );
    }
    body = await response.bytes(MAX_TOKEN_BYTES);
  } catch (error) {
    if (
      isSkillshelfError(error) &&
      (error.code === "token_failed" || error.code.startsWith("proxy_"))
    )
      throw error;
    throw failed("could not be asked for a token", {}, error);
  }
  const token = tokenOf(body);
  if (token === undefined) throw failed("answered without a token");
  return `Bearer ${token}`;
}

// --- internal ---

/** A token service's answer is a small JSON object; anything past this is not one. */
const MAX_TOKEN_BYTES = 1024 * 1024;

/** The `key="value"` fields of a challenge, keys lower-cased. */
function challengeFields(challenge: string): Readonly<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [, key = "", value = ""] of challenge.matchAll(/(\w+)="([^"]*)"/g))
    fields[key.toLowerCase()] ??= value;
  return fields;
}

/** The realm as a URL a token may be asked at: https, or plain http on this machine. */
function tokenRealm(text: string, server: URL): URL {
  const realm = URL.canParse(text) ? new URL(text) : undefined;
  const secure =
    realm !== undefined &&
    (realm.protocol === "https:" || (realm.protocol === "http:" && isLoopbackHost(realm.hostname)));
  if (realm === undefined || !secure || realm.username !== "" || realm.password !== "")
    throw new SkillshelfError(
      "token_realm_insecure",
      `${server.host} sends clients for a token to ${JSON.stringify(text)}, which is not an https URL`,
      { details: { url: text, host: server.host } },
    );
  return realm;
}

function tokenOf(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { token?: unknown; access_token?: unknown };
    const token = typeof parsed.token === "string" ? parsed.token : parsed.access_token;
    return typeof token === "string" && token !== "" ? token : undefined;
  } catch {
    return undefined;
  }
}
