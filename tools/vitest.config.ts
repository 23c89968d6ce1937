import { workspaceProject } from "./vitest-project.ts";

export default workspaceProject("tools", { fromSource: false });
