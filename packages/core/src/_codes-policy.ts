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
} as const;
