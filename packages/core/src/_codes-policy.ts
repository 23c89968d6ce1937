// Codes of policies (`policy.yaml`) and of what they refuse, signatures included.
export const POLICY_CODES = {
  policy_invalid: {
    owner: "policy",
    hint: "fix the policy file (skillshelf policy shows every file read); until it reads, every change is refused",
  },
  policy_loosening_ignored: {
    owner: "policy",
    hint: "a policy can only tighten the one above it; remove the looser rule, or change it where it is set",
  },
  policy_refused: {
    owner: "policy",
    hint: "the rule and the file that sets it are named; ask whoever keeps that file, or choose another package (skillshelf policy shows the rules in force)",
  },
  signature_missing: {
    owner: "policy",
    hint: "the policy requires signed packages: install a signed release (published with skillshelf publish --sign), or ask the publisher to sign it",
  },
  signature_invalid: {
    owner: "policy",
    hint: "the signature does not match these files or is not by a key the policy names: do not install it; ask the publisher which key signs their releases",
  },
  signature_failed: {
    owner: "sources",
    hint: "check the key: a private key file ssh-keygen can read, or a public key whose private half your ssh-agent holds (ssh-add -l lists them)",
  },
  signature_tool_missing: {
    owner: "sources",
    hint: "install OpenSSH's client tools (apt-get install openssh-client): signatures are made and checked with ssh-keygen, as git does",
  },
  advisory_revoked: {
    owner: "resources",
    hint: "an advisory you follow revokes this copy (its id and summary say why): it is not installed, and a model no longer sees an installed one; remove it (skillshelf remove) or install a version the advisory does not name",
  },
  advisory_feed_invalid: {
    owner: "policy",
    hint: 'the advisory feed is not JSON of the form { "version": 1, "advisories": [...] } (docs/advisories.md), or its signature does not verify against the signer named; fix the feed or its source, then run skillshelf advisories add again',
  },
  org_invalid: {
    owner: "policy",
    hint: "the org file does not follow its format (docs/org.md; skillshelf validate org.yaml names every problem): fix it at its source, then run skillshelf org join again",
  },
  org_expired: {
    owner: "policy",
    hint: "the org's file is past its ttl and the org fails closed: reach the org's source (a network, a VPN) and run skillshelf org sync; until then every change is refused",
    hintWith:
      "the org's file is past its ttl and the org fails closed: reach {source} (a network, a VPN) and run skillshelf org sync; until then every change is refused",
  },
  org_stale: {
    owner: "policy",
    hint: "the org's file is past its ttl: its last copy stays in force until skillshelf org sync reaches the org",
    hintWith:
      "the org's file is past its ttl: its last copy stays in force until skillshelf org sync reaches {source}",
  },
  org_team_unknown: {
    owner: "policy",
    hint: "name a team the org's file lists (skillshelf org status shows them)",
  },
  org_channel_unknown: {
    owner: "policy",
    hint: "name a channel the team has (skillshelf org status shows them; stable when none is named)",
  },
  org_not_joined: {
    owner: "lifecycle",
    hint: "join the org first: skillshelf org join <source> with the signer or digest it publishes (the project's .skillshelf/org.json names them when it records one)",
    hintWith: "join the org this scope was installed under: skillshelf org join {source} {pin}",
  },
  org_mismatch: {
    owner: "lifecycle",
    hint: "this scope was installed under another org, or the same org pinned otherwise: join the org it records (.skillshelf/org.json) or ask whoever keeps the project",
  },
  org_already_joined: {
    owner: "lifecycle",
    hint: "this machine follows another org: skillshelf org leave first, then join the new one",
  },
  org_digest_mismatch: {
    owner: "lifecycle",
    hint: "the org's file is not the one pinned: do not use it; ask the org for the digest it publishes now, or join with its signer (--signer) instead",
  },
  team_drift: {
    owner: "lifecycle",
    hint: "the scope no longer holds what its team's set lists: skillshelf install --team <team> installs it again",
  },
} as const;
