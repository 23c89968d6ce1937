// Codes `core` produces: files, YAML and frontmatter, containment, package trees.
export const CORE_CODES = {
  broken_link: { owner: "core", hint: "remove the symlink or point it at a file that exists" },
  disk_full: {
    owner: "core",
    hint: "free space on the device that holds the path, then run the command again",
  },
  disk_full_after_commit: {
    owner: "core",
    hint: "the change is committed; free space, then run skillshelf verify to see it finished",
  },
  not_writable: {
    owner: "core",
    hint: "make the folder named writable for you, or change another scope (--user or --project)",
  },
  field_invalid: { owner: "core", hint: "give the field a value of the type the format expects" },
  option_invalid: {
    owner: "core",
    hint: "pass the option the type its documentation gives (a root needs path, scope, source, origin, precedence and trust)",
  },
  file_changed: {
    owner: "core",
    hint: "something edited the file at the same time; review it, then retry",
  },
  file_contains_nul: {
    owner: "core",
    hint: "the file must be a text document; remove the binary content",
  },
  file_not_utf8: { owner: "core", hint: "save the file as UTF-8 text" },
  file_too_large: {
    owner: "core",
    hint: "make the file smaller (split it, or move detail into files it points to), or check that the right file is named",
  },
  tree_too_deep: {
    owner: "core",
    hint: "a package's folders nest a few levels; this source is refused, so pick another",
  },
  json_too_deep: {
    owner: "core",
    hint: "the file nests arrays and objects too deep to be one Skillshelf writes or reads; replace it",
  },
  frontmatter_alias_limit: { owner: "core", hint: "remove the YAML anchors and aliases" },
  frontmatter_invalid: {
    owner: "core",
    hint: "quote values that contain `: ` or start with `[`, `{`, `*` or `&`",
  },
  frontmatter_missing: {
    owner: "core",
    hint: "start the file with a `---` line, the keys, and a closing `---` line",
  },
  dot_folder_skipped: {
    owner: "core",
    hint: "move the skills out of the dot folder, or name it in the root's dotFolders (a root you build) if your agent reads it",
  },
  walk_depth_limit: {
    owner: "core",
    hint: "move the resources closer to the root; folders deeper than the limit are not read",
  },
  frontmatter_not_mapping: { owner: "core", hint: "write the frontmatter as `key: value` lines" },
  frontmatter_recovered: {
    owner: "core",
    hint: "quote the values the message names to make the frontmatter valid YAML",
    hintWith: "quote the value of {keys} to make the frontmatter valid YAML",
  },
  frontmatter_too_large: {
    owner: "core",
    hint: "move long text from the frontmatter into the body",
  },
  frontmatter_unclosed: { owner: "core", hint: "add a `---` line after the last key" },
  key_missing: { owner: "core", hint: "add the key the format requires" },
  key_unknown: {
    owner: "core",
    hint: "remove the key or check its spelling",
    hintWith: "move {keys} under `metadata`: the specification does not name them",
  },
  not_a_file: {
    owner: "core",
    hint: "replace it with a regular file (not a FIFO, device, socket or folder)",
  },
  read_failed: { owner: "core", hint: "check the file's permissions and that it still exists" },
  symlink_escape: {
    owner: "core",
    hint: "move what the link points to inside its root, or name it with an explicit path; a host that means to follow such links names their folder in the root's `linkTargets`",
  },
  tree_changed: {
    owner: "core",
    hint: "retry when nothing else is writing to the package folder",
  },
  tree_copy_failed: {
    owner: "core",
    hint: "check the free space and the length of the destination's paths, then retry",
  },
  tree_link_escape: {
    owner: "core",
    hint: "replace the symlink with the file it points to, or make it a relative link that stays inside the package",
    hintWith: "name a real folder of the repository instead of {subfolder}",
  },
  tree_missing: { owner: "core", hint: "check the path of the package folder" },
  tree_not_directory: {
    owner: "core",
    hint: "a package is a folder; name the folder, not a file or a symlink to one",
  },
  tree_special_file: { owner: "core", hint: "remove the FIFO, socket or device from the package" },
  tree_unreadable: { owner: "core", hint: "check the permissions of the package folder" },
} as const;
