import { workspaceProject } from "../../../tools/vitest-project.ts";

// the command's tests that need it built: the bin itself, signals, a staging folder from TMPDIR,
// loopback servers answering while git runs in another process
export default workspaceProject("cli-e2e", { include: ["*.test.ts"] });
