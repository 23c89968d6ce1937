/** @internal */
export { fastParseYamlList, fastParseYamlMapping } from "./_fast-yaml.js";
/** @internal */
export type { AnchoredRoot } from "./_links.js";
/** @internal */
export { anchorRoot } from "./_links.js";
export type {
  AgentBudget,
  AgentDefinition,
  AgentSwitch,
  AgentSwitchShape,
  AgentView,
  AgentViewRoot,
} from "./agents.js";
export {
  AGENT_PROJECT_SKILL_FOLDERS,
  AGENTS,
  agentFolder,
  agentNeedsCopy,
  agentRank,
  agentSkillFolder,
  findAgent,
  isFolderLike,
  unreadSwitchFiles,
} from "./agents.js";
export { siblingName, syncFolder, writeFileAtomic } from "./atomic-write.js";
export {
  canonicalJson,
  canonicalJsonFile,
  canonicalJsonFileReusing,
  sameJson,
} from "./canonical-json.js";
export type { Code, CodeEntry, CodeOwner, CodesOf } from "./codes.js";
export { CODES, isCode } from "./codes.js";
export type {
  ContainedPath,
  PathAccess,
  PathNodeKind,
  ResolveContainedOptions,
} from "./containment.js";
export {
  isInside,
  normalizeRelativePath,
  realpathOrUndefined,
  resolveContained,
} from "./containment.js";
export type { CopyTreeOptions } from "./copy-tree.js";
export { copyTree } from "./copy-tree.js";
export type { CodeDetails, DetailsOf, OfferedSkill } from "./details.js";
export { detailsOf } from "./details.js";
export {
  compareText,
  createDiagnostic,
  errorDiagnostic,
  hasErrors,
  sortDiagnostics,
} from "./diagnostics.js";
export {
  findProject,
  projectLibraryDir,
  resolveEnvironment,
  scopeAnchor,
  scopeLibraryDir,
  userLibraryDir,
} from "./environment.js";
export type { SkillshelfErrorOptions } from "./errors.js";
export { codedWriteError, errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
export type { FolderEntry, FolderListings, SavedFolderListing } from "./folder-listings.js";
export { createFolderListings, isSavedFolderListing, listSorted } from "./folder-listings.js";
export type {
  FrontmatterCode,
  FrontmatterResult,
  FrontmatterSplit,
  ParseFrontmatterOptions,
} from "./frontmatter.js";
export { parseFrontmatter, readRawYamlValue, splitFrontmatter } from "./frontmatter.js";
export { createSha256, randomHex, sha256 } from "./hash.js";
export type {
  AuditSeverity,
  FileResourceKind,
  LinkKind,
  PackageKind,
  ResourceFolder,
  ResourceKind,
} from "./kinds.js";
export {
  AUDIT_SEVERITIES,
  FILE_RESOURCE_KINDS,
  folderKind,
  isPackageKind,
  isResourceKind,
  LINKABLE_KINDS,
  PACKAGE_KINDS,
  RESOURCE_FOLDERS,
  RESOURCE_KINDS,
  resourceFolder,
} from "./kinds.js";
export type { LexicalQuery, MatchMode } from "./lexical.js";
export {
  filterLexical,
  isSearchable,
  matchLexical,
  parseLexicalQuery,
  rankLexical,
} from "./lexical.js";
export { assertLoaderOptions } from "./loader-options.js";
export { isLoopbackHost } from "./loopback.js";
export {
  isPackageSource,
  mapSourceFolders,
  orderedSource,
  sourceProblem,
} from "./package-sources.js";
export type {
  CopyRef,
  RequirementRef,
  ResourcePackageFacts,
  SkillPackageFacts,
} from "./packages.js";
export {
  copyKey,
  formatRequirementRef,
  identityKey,
  identityName,
  isPackageId,
  isSemver,
  MAX_PACKAGE_ID_LENGTH,
  parseRequirementRef,
  resourcePackageManifestText,
  skillPackageManifestText,
} from "./packages.js";
export type { JsonDocumentResult } from "./parse-json.js";
export { MAX_JSON_DEPTH, nullPrototypeRecord, parseJson, parseJsonDocument } from "./parse-json.js";
export type { ProcessIdentity } from "./processes.js";
export { hostTag, isProcessRunning, processIdentity } from "./processes.js";
export type {
  FileStamp,
  OpenedFile,
  TextContent,
  TextDocument,
  TextFileOptions,
} from "./read-file.js";
export {
  fileStamp,
  isSettled,
  openRegularFile,
  RACY_MS,
  readRegularFile,
  readStampedFile,
  readTextDocument,
  sameStamp,
} from "./read-file.js";
export type { TextHead } from "./read-head.js";
export { HEAD_BLOCK_BYTES, readTextHead } from "./read-head.js";
export { removeTree } from "./remove-tree.js";
export type {
  AgentFolderColumns,
  HostFolders,
  PackageCopyRef,
  ResourcePlace,
  ResourceRoot,
  ResourceTrust,
} from "./roots.js";
export {
  defaultResourceRoots,
  explicitRoot,
  foldersUpToProject,
  hostRoots,
  isTrustedRoot,
  packageRoot,
  ROOT_PRECEDENCE,
  resourcePlace,
  withDefaultContainment,
} from "./roots.js";
export type { SchemaIssue } from "./schema-issues.js";
export { schemaDiagnostics } from "./schema-issues.js";
export { sshKeyFingerprint } from "./ssh-keys.js";
export { closest } from "./suggest.js";
export type { DecodedText } from "./text.js";
export { decodeText } from "./text.js";
export type { TreeDigest, TreeFileRead, TreeStamp } from "./tree-digest.js";
export { digestTree, restampTree, stampTree, TREE_READ_BYTES } from "./tree-digest.js";
export type {
  Diagnostic,
  DiagnosticPlace,
  Environment,
  EnvironmentInput,
  HintedDiagnostic,
  PackageScope,
  PackageSource,
  ReadResult,
  ResourceSource,
  Scope,
  Severity,
  SourceOf,
  SourceType,
} from "./types.js";
export { isOwnedSource, SCOPES, SOURCE_FIELDS } from "./types.js";
export type {
  MarkdownFile,
  MarkdownWalk,
  RootWalk,
  RootWalker,
  RootWalkResult,
  WalkedFile,
  WalkedFolder,
} from "./walk.js";
export { findMarkdownFiles, MAX_WALK_DEPTH, walkRoot } from "./walk.js";
export type { YamlDocumentResult, YamlFailure, YamlLimits, YamlMappingResult } from "./yaml.js";
export { parseYamlDocument, parseYamlMapping } from "./yaml.js";
