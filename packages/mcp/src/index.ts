export type { SkillEntry } from "./_listing.js";
export type { HttpOptions } from "./http.js";
export { MAX_HTTP_MESSAGE_BYTES, serveHttp } from "./http.js";
export type { ServedSkills, WithheldReason } from "./served.js";
export { servedSkills, withheldReason } from "./served.js";
export type { SkillServer, SkillServerOptions } from "./server.js";
export { createSkillServer } from "./server.js";
export { serveStdio } from "./stdio.js";
export type { ServerTool, ToolAnswer, ToolClient } from "./tools.js";
