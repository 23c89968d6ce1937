export type { SessionLogFormat } from "./formats.js";
export { SESSION_LOG_FORMATS } from "./formats.js";
export type { SessionLogRead, SkillInvocation } from "./read.js";
export { MAX_LINE_BYTES, readSessionLogs } from "./read.js";
