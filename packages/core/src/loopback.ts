/**
 * True when `hostname` (as `URL.hostname` gives it: an IPv6 address in brackets) names this
 * machine by itself: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`. Names that merely
 * resolve to loopback through DNS do not count: what a name resolves to is not ours to trust.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost") return true;
  // node:net is loaded only when a host is judged: most commands never do
  const version = process.getBuiltinModule("node:net").isIP(host);
  if (version === 4) return host.startsWith("127.");
  // the URL parser writes every spelling of an IPv6 address one way
  return version === 6 && new URL(`http://[${host}]`).hostname === "[::1]";
}
