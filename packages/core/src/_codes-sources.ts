// Codes `sources` produces: indexes, source strings, staging from folders, git and archives.
export const SOURCES_CODES = {
  aborted: { owner: "sources", hint: "run it again when you want it to finish" },
  archive_entry_refused: {
    owner: "sources",
    hint: "only use archives whose members are files, folders and links that stay inside the package",
  },
  archive_invalid: {
    owner: "sources",
    hint: "ask the publisher for a plain .tar.gz of the package's files",
  },
  archive_too_large: {
    owner: "sources",
    hint: "for a source you trust, raise limits.downloadBytes (or limits.unpackedBytes) in the settings.json of the scope you install into (skillshelf doctor names it)",
  },
  archive_too_many_entries: {
    owner: "sources",
    hint: "for a source you trust, raise limits.entries in the settings.json of the scope you install into (skillshelf doctor names it)",
  },
  archive_truncated: { owner: "sources", hint: "download the archive again; it is cut short" },
  auth_refused: {
    owner: "sources",
    hint: "the host refused the credentials configured for it; check them in the user library's hosts.json",
  },
  auth_required: {
    owner: "sources",
    hint: "configure headers for the host in the user library's hosts.json (skillshelf doctor names the file)",
    hintWith: "configure headers for {host} in the user library's hosts.json",
  },
  credentials_helper_failed: {
    owner: "sources",
    hint: "run the headersHelper named in hosts.json yourself: it must print a JSON object of headers",
  },
  credentials_invalid: {
    owner: "sources",
    hint: 'write hosts.json as {"version":1,"hosts":{"host":{"headers":{…}}}} and set the variables its headers name',
  },
  collection_duplicate: {
    owner: "sources",
    hint: "pick one by its path: --skill <path>, as the details list them",
  },
  collection_link_loop: {
    owner: "sources",
    hint: "remove the link that points back to a folder above it in the repository",
  },
  collection_link_dangling: {
    owner: "sources",
    hint: "that skill is left out: its SKILL.md links to a file the repository does not hold; tell its authors",
  },
  collection_not_a_skill: {
    owner: "sources",
    hint: "a SKILL.md with no frontmatter (a README, a template) is not installed; give it a name and description to make it a skill",
  },
  collection_link_outside: {
    owner: "sources",
    hint: "that skill is left out; install it from the folder the link points to, if you trust it",
  },
  collection_too_deep: {
    owner: "sources",
    hint: "name the folder that holds the skills (<source>//<folder>), or move them nearer the root",
  },
  collection_too_large: {
    owner: "sources",
    hint: "name the folder that holds the skills (<source>//<folder>)",
  },
  collection_skill_invalid: {
    owner: "sources",
    hint: "run skillshelf validate on the skill's folder, and give it a frontmatter name of lower-case letters, digits and hyphens and a description",
  },
  download_failed: { owner: "sources", hint: "check the URL and the network, then retry" },
  download_redirect_refused: {
    owner: "sources",
    hint: "use the final https:// URL of the archive directly",
  },
  download_timeout: {
    owner: "sources",
    hint: "check the network and the proxy (skillshelf doctor shows it), or raise limits.timeoutSeconds in the settings.json of the scope you install into, then retry",
  },
  git_failed: {
    owner: "sources",
    hint: "check the URL, the ref and your access to the repository",
  },
  git_missing: {
    owner: "sources",
    hint: "install git, or use a local folder or an archive source",
  },
  git_timeout: { owner: "sources", hint: "check the network and the URL, then retry" },
  index_invalid: {
    owner: "sources",
    hint: "fix the index's syntax; skillshelf validate shows where",
  },
  index_not_fetched: {
    owner: "sources",
    hint: "run skillshelf sources update to fetch it on this machine",
  },
  index_not_writable: {
    owner: "sources",
    hint: "name a library.yaml to write rows into (--index FILE); a marketplace.json lists plugins of another format",
  },
  index_key_unknown: { owner: "sources", hint: "remove the key or check its spelling" },
  index_missing: {
    owner: "sources",
    hint: "name an index file (library.yaml, library.json, a marketplace.json), or a folder or repository holding one",
  },
  index_in_subfolder: {
    owner: "sources",
    hint: "name the repository that holds .claude-plugin/marketplace.json or library.yaml at its root",
  },
  index_requirement_invalid: {
    owner: "sources",
    hint: "write requires as a list of kind:name refs",
  },
  index_row_invalid: { owner: "sources", hint: "give the row every field an index row needs" },
  index_row_repeated: { owner: "sources", hint: "keep one row per kind:name; the last one counts" },
  index_unreadable: { owner: "sources", hint: "check the index file's path and permissions" },
  index_provides_ignored: {
    owner: "sources",
    hint: "write provides as a list of {kind, name} entries, within the limits",
  },
  source_invalid: { owner: "sources", hint: "name a folder, a git URL or an https:// .tar.gz" },
  source_missing: { owner: "sources", hint: "check the path of the package source" },
  source_protocol_refused: {
    owner: "sources",
    hint: "name the repository by an https://, ssh:// or file:// URL or a path",
  },
  source_ref_invalid: {
    owner: "sources",
    hint: "write #<branch, tag or commit> or #ref=<ref>&path=<folder>",
  },
  bundle_invalid: {
    owner: "sources",
    hint: "name a bundle skillshelf bundle create wrote (a .tar.gz with bundle.json at its top), whole and unchanged",
  },
  bundle_incomplete: {
    owner: "lifecycle",
    hint: "the bundle's lock names a package the bundle does not hold; make the bundle again with skillshelf bundle create where every package is installed",
  },
  mirror_required: {
    owner: "sources",
    hint: "the policy sets mirror-only, so nothing is fetched from its upstream: add a mirrors rule for it (from: <upstream prefix>, to: <your mirror>) to policy.yaml, or ask whoever manages the policy",
  },
  source_insecure: {
    owner: "sources",
    hint: "use the https:// URL; plain http:// is fetched only from this machine (localhost, 127.0.0.1, ::1)",
  },
  npm_config_invalid: {
    owner: "sources",
    hint: "fix or move the .npmrc named; npm must be able to read it too",
  },
  npm_package_missing: {
    owner: "sources",
    hint: "check the package's name and the registry your .npmrc names for its scope",
  },
  npm_version_missing: {
    owner: "sources",
    hint: "check the version range; npm view <name> versions lists what is published",
  },
  oci_manifest_unsupported: {
    owner: "sources",
    hint: "push the skill as one gzipped tar layer (skillshelf publish writes the ToolHive skillet shape)",
  },
  oci_not_found: {
    owner: "sources",
    hint: "check the repository and the tag or digest; skopeo list-tags lists what is there",
  },
  oci_signed_by_other_tool: {
    owner: "sources",
    hint: "another tool (cosign) signed this artifact; Skillshelf verifies only SSH signatures it can check against a key you name, so this one is reported and not trusted",
  },
  site_index_invalid: {
    owner: "sources",
    hint: "the site's index must list skills as the discovery RFC writes them (name, type, url, digest); tell its publisher",
  },
  site_index_missing: {
    owner: "sources",
    hint: "check the site's URL; it must serve /.well-known/agent-skills/index.json (or wk:<url> for a site below a path)",
  },
  site_skill_missing: {
    owner: "sources",
    hint: "run skillshelf install <site> to list the site's skills, then choose one by its name",
  },
  source_subfolder_missing: { owner: "sources", hint: "check the subfolder in the source" },
  source_too_large: {
    owner: "sources",
    hint: "name a smaller repository or subfolder, or, for a source you trust, raise limits.downloadBytes (limits.unpackedBytes, limits.entries) in the settings.json of the scope you install into",
  },
  proxy_auth_required: {
    owner: "sources",
    hint: "give the proxy's user and password in the proxy variable (http://user:password@host:port), or check them",
  },
  proxy_invalid: {
    owner: "sources",
    hint: "write the proxy variable as http://host:port (or https://host:port), or unset it",
  },
  proxy_refused: {
    owner: "sources",
    hint: "ask the proxy's administrators to allow the host, or add the host to NO_PROXY if it is reached without the proxy",
  },
  proxy_unreachable: {
    owner: "sources",
    hint: "check that the proxy the variables name is running and reachable (skillshelf doctor shows which one each source uses)",
  },
  server_not_tls: {
    owner: "sources",
    hint: "the server speaks plain HTTP on that port: check the port, or name a server on this machine by its http URL",
    hintWith: "the server speaks plain HTTP: name it as {suggestion}",
  },
  settings_invalid: {
    owner: "sources",
    hint: 'write settings.json as {"version":1,"limits":{"downloadBytes":…,"unpackedBytes":…,"entries":…,"timeoutSeconds":…}}, whole numbers above 0',
  },
  source_unsupported: {
    owner: "sources",
    hint: "use a local path, a git URL or an https:// .tar.gz source",
  },
  sources_invalid: { owner: "sources", hint: "fix or delete sources.json, then retry" },
  stage_failed: {
    owner: "sources",
    hint: "check the source and the free space of the temporary folder, then retry",
  },
  stage_write_failed: {
    owner: "sources",
    hint: "check the free space and permissions of the temporary folder, then retry",
  },
  temp_folder_missing: {
    owner: "sources",
    hint: "create the folder TMPDIR names, or point TMPDIR at a folder that exists",
  },
  tls_untrusted: {
    owner: "sources",
    hint: "if your network inspects TLS, point NODE_EXTRA_CA_CERTS at its CA certificate; otherwise do not trust the server",
  },
  token_failed: {
    owner: "sources",
    hint: "check the credentials kept for the registry (docker login <registry>) and that its token service is reachable, then retry",
  },
  token_realm_insecure: {
    owner: "sources",
    hint: "a token service is asked only over https (plain http only on this machine): tell the registry's operators",
  },
  version_invalid: { owner: "sources", hint: "write the version as SemVer, for example 1.2.0" },
} as const;
