import { workspaceProject } from "../../tools/vitest-project.ts";

export default workspaceProject("session-logs");
