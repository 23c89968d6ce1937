export { fastParseYamlMapping } from "./_fast-yaml.js";
export type { AgentDefinition } from "./agents.js";
export { AGENTS, agentRank } from "./agents.js";
export { siblingName, syncFolder, writeFileAtomic } from "./atomic-write.js";
export { canonicalJson } from "./canonical-json.js";
export type { Code, CodeEntry, CodeOwner } from "./codes.js";
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
export { compareText, createDiagnostic, hasErrors, sortDiagnostics } from "./diagnostics.js";
export {
  findProject,
  projectLibraryDir,
  resolveEnvironment,
  userLibraryDir,
} from "./environment.js";
export type { SkillshelfErrorOptions } from "./errors.js";
export { errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
export type {
  FrontmatterCode,
  FrontmatterResult,
  FrontmatterSplit,
  ParseFrontmatterOptions,
} from "./frontmatter.js";
export { parseFrontmatter, readRawYamlValue, splitFrontmatter } from "./frontmatter.js";
export { sha256 } from "./hash.js";
export type { PackageKind, ResourceFolder, ResourceKind } from "./kinds.js";
export {
  folderKind,
  isPackageKind,
  isResourceKind,
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
  normalizeSearchText,
  parseLexicalQuery,
  STOPWORDS,
} from "./lexical.js";
export type { AnchoredRoot, LinkTarget } from "./links.js";
export { anchorRoot, followLink, readFailed, symlinkEscape } from "./links.js";
export type { RequirementRef } from "./packages.js";
export {
  formatRequirementRef,
  isPackageId,
  isSemver,
  MAX_PACKAGE_ID_LENGTH,
  parseRequirementRef,
} from "./packages.js";
export type { JsonDocumentResult } from "./parse-json.js";
export { parseJsonDocument } from "./parse-json.js";
export type { TextDocument } from "./read-file.js";
export { openRegularFile, readRegularFile, readTextDocument } from "./read-file.js";
export type { AgentFolderColumns, ResourcePlace, ResourceRoot, ResourceTrust } from "./roots.js";
export {
  agentRoot,
  defaultResourceRoots,
  isTrustedRoot,
  libraryRoot,
  packageRoot,
  ROOT_PRECEDENCE,
  resourcePlace,
  withoutRepeatedRoots,
} from "./roots.js";
export type { SchemaIssue } from "./schema-issues.js";
export { schemaDiagnostics } from "./schema-issues.js";
export type { DecodedText } from "./text.js";
export { decodeText, detachText } from "./text.js";
export type { TreeDigest } from "./tree-digest.js";
export { digestTree } from "./tree-digest.js";
export type {
  Diagnostic,
  DiagnosticPlace,
  Environment,
  EnvironmentInput,
  PackageSource,
  ResourceSource,
  Scope,
  Severity,
} from "./types.js";
export { isOwnedSource, SCOPES } from "./types.js";
export type { MarkdownFile, MarkdownWalk } from "./walk.js";
export { findMarkdownFiles, MAX_WALK_DEPTH } from "./walk.js";
export type { YamlDocumentResult, YamlFailure, YamlLimits, YamlMappingResult } from "./yaml.js";
export {
  DEFAULT_YAML_MAX_ALIAS_COUNT,
  DEFAULT_YAML_MAX_LENGTH,
  parseYamlDocument,
  parseYamlMapping,
} from "./yaml.js";
