export type { SourceLimits } from "./_archive.js";
export { DEFAULT_ARCHIVE_LIMITS } from "./_archive.js";
export { COLLECTION_LAYOUTS, MARKETPLACE_FILES, MAX_SEARCH_DEPTH } from "./_collection-layouts.js";
export { orphanedStaging, privateTempFolder } from "./_failure.js";
export type { GitOptions } from "./_git.js";
export { runGit } from "./_git.js";
export type { ListedSkill, SkillsConnection, SkillsUpstream } from "./_mcp-client.js";
export type { OciReference } from "./_oci-client.js";
export { blobDigest, ociSession } from "./_oci-client.js";
export { MEDIA, ociArtifact } from "./_oci-shapes.js";
export { indexReferrer, manifestDescriptor, signatureArtifact } from "./_oci-signature.js";
export type { BundleManifest, OpenedBundle } from "./bundle-file.js";
export { DEFAULT_BUNDLE_LIMITS, openBundle, writeBundleFile } from "./bundle-file.js";
export type { Collection, CollectionSkill, RefusedSkill, StagingArea } from "./collection.js";
export { createStagingArea, readCollection, stageCollectionSkill } from "./collection.js";
export type { CollectionResource } from "./collection-resources.js";
export { stageCollectionResource } from "./collection-resources.js";
export type { HostHeaders } from "./credentials.js";
export { hostHeaders, hostsFile, sourceAccess } from "./credentials.js";
export type { DiscoverOptions } from "./discover.js";
export { discoverLibrary } from "./discover.js";
export type { Fetcher, FetchInto, PackageUrlParts, SourceOrigin } from "./fetchers/_fetcher.js";
export {
  askNewest,
  describeSource,
  fetcherOf,
  folderInPlace,
  isPinnedTo,
  isSourcePinned,
  parseSourceAs,
  revisionText,
  SOURCE_FETCHERS,
  sourceAtRef,
  sourceCommand,
  sourceFolderOnMachine,
  sourceOrigin,
  sourceOuter,
  sourcePackageUrl,
  sourcePinnedAt,
  sourcePlace,
  sourceRepository,
  sourceWithin,
} from "./fetchers/index.js";
export { checkListedFrontmatter, connectSkillsServer } from "./fetchers/mcp.js";
export { referenceOf as ociReference } from "./fetchers/oci.js";
export type { HttpClient, HttpInit, HttpResponse, OriginCredentials } from "./http/client.js";
export { createHttpClient } from "./http/client.js";
export type { ProxySettings } from "./http/proxy.js";
export { proxyName, readProxySettings } from "./http/proxy.js";
export type { ProxyRoute } from "./http/routes.js";
export { proxyRoutes } from "./http/routes.js";
export { MAX_INDEX_BYTES, readIndex } from "./index-file.js";
export type { PinnedRow, RowChange } from "./index-writer.js";
export { writeIndexRows } from "./index-writer.js";
export {
  decodedSegments,
  overSkillLimits,
  SKILL_LIMITS,
  SKILLS_EXTENSION,
  STDIO_PREFIX,
} from "./mcp-protocol.js";
export type { NpmConfig } from "./npm-config.js";
export { npmConfig } from "./npm-config.js";
export type { OciCredentials } from "./oci-credentials.js";
export { ociCredentials } from "./oci-credentials.js";
export type { RemoteIndex } from "./remote-index.js";
export { fetchRemoteIndex, parseRemoteIndex } from "./remote-index.js";
export type { RepositoryPlugin } from "./repository-plugins.js";
export { repositoryPlugins } from "./repository-plugins.js";
export type { InstalledStatus, RequirementResolution } from "./requirements.js";
export { resolveRequirements } from "./requirements.js";
export { scopeSettingsPath, scopeSourceSettings } from "./scope-settings.js";
export type { ScopeSource } from "./scope-sources.js";
export {
  addRemoteScopeSource,
  addScopeSource,
  INDEX_FILE_NAMES,
  locateIndex,
  readScopeSources,
  removeScopeSource,
  scopeIndexPath,
  scopeSourcesPath,
  sourceName,
} from "./scope-sources.js";
export type { IndexSearch } from "./search.js";
export { searchIndexRows } from "./search.js";
export { fetchPublishedFile } from "./signed-file.js";
export type { ParsedSource } from "./source-url.js";
export { parseSourceSpec, parseSourceUrl } from "./source-url.js";
export { MAX_SIGNATURE_BYTES, SIGNATURE_NAMESPACE, sshSign, sshVerify } from "./ssh-signature.js";
export type { StageOptions } from "./stage.js";
export { digested, fetchedWithin, fetchSource, stageSource } from "./stage.js";
export { packTarGz } from "./tar-pack.js";
export type {
  FetchedSource,
  IndexOrigin,
  IndexResult,
  IndexRow,
  LibraryDiscovery,
  ProvidedResource,
  StagedSource,
} from "./types.js";
