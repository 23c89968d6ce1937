export { freePort } from "./_daemon.js";
export type { TarMember } from "./archives.js";
export { fixChecksum, tarBytes, tarGz } from "./archives.js";
export type { ChildRun, NodeChildOptions } from "./child.js";
export { readOnlyFolder, runNodeChild, smallFilesystem } from "./child.js";
export type { CorpusFile, StrictVerdict } from "./corpus.js";
export {
  CORPUS_DIR,
  copyCorpus,
  corpusFiles,
  flowStyleAllowedVerdicts,
  strictVerdicts,
} from "./corpus.js";
export { crashAtWrite, KILL_AT_WRITE_PRELOAD, signalAtWrite } from "./crash.js";
export type { TestEnvironment } from "./environment.js";
export { skillFile, testEnvironment } from "./environment.js";
export { bareClone, gitEnv, gitRepo } from "./git.js";
export { chainedLinkTarMembers, chainedLinkTree } from "./hostile.js";
export type { NpmRegistry } from "./npm-registry.js";
export { startNpmRegistry } from "./npm-registry.js";
export type { OciRegistry } from "./oci-registry.js";
export {
  pushPlainImage,
  startOciRegistry,
  writeDockerAuth,
  writeImageLayout,
} from "./oci-registry.js";
export type { PackageTreeOptions } from "./packages.js";
export { packageTree } from "./packages.js";
export { packedWithDependencies } from "./packs.js";
export type { ForwardProxy, ProxiedRequest } from "./proxy.js";
export { startForwardProxy } from "./proxy.js";
export { pick, seededRandom } from "./random.js";
export { serve, serveHttps, throwawayCertificate } from "./serve.js";
export type { SiteEntry } from "./site.js";
export { folderRoutes, siteRoutes } from "./site.js";
export type { FileSpec, LinkSpec, Tree, TreeEntry } from "./testdir.js";
export { link, testdir, writeTree } from "./testdir.js";
