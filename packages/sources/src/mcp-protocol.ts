/** The MCP extension for skills (SEP-2640), as servers declare it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
