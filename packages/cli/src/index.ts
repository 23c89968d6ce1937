export type { CliIo } from "./io.js";
export { processIo, UsageError } from "./io.js";
export { main, USAGE } from "./main.js";
