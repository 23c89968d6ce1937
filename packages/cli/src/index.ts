export type { CommandDefinition, CommandInput, OptionSpec } from "./command.js";
export { COMMANDS } from "./commands.js";
export type { CliIo, ProcessIo } from "./io.js";
export { processIo } from "./io.js";
export { main, USAGE } from "./main.js";
export { UsageError } from "./usage-error.js";
