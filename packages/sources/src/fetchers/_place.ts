/** Where a URL points, as a policy names places: `host/owner/repo` (`git@host:owner/repo` read as one). */
export function urlPlace(url: string): string {
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(url);
  let host = url;
  let path = "";
  if (scp !== null) [host, path] = [scp[1] as string, scp[2] as string];
  else if (URL.canParse(url)) {
    const parsed = new URL(url);
    [host, path] = [parsed.host, parsed.pathname];
  }
  const trimmed = path.replace(/^\/+|\/+$/g, "").replace(/\.git$/, "");
  return trimmed === "" ? host : `${host}/${trimmed}`;
}
