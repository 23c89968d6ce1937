import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest on a loaded machine (a `.ci/run` beside two busy loops):
 * started first, so the shorter ones fill the cores beside them instead of the longest running
 * alone at the end (vitest orders by project name, and `tools` comes last).
 */
const LONGEST_FIRST = [
  "packages/cli/e2e/crash-sweep.test.ts",
  "packages/bench/test/smoke.test.ts",
  "tools/test/release.test.ts",
  "packages/cli/e2e/scale.test.ts",
  "tools/test/one-place.test.ts",
  "tools/test/readmes.test.ts",
  "packages/lifecycle/test/processes.test.ts",
  "packages/cli/e2e/mcp-source.test.ts",
  "tools/test/check-layers.test.ts",
  "tools/test/declarations.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // stable: the rest keep vitest's own order
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    projects: ["packages/*", "packages/cli/e2e", "tools"],
    sequence: { sequencer: LongestFirst },
    // Vitest's default on two cores is one worker, and most test files spend their time waiting
    // on the child processes, servers and disks they start: three files at once keep both cores
    // busy (beside two busy loops too) without any file's hang guard coming near.
    maxWorkers: 3,
  },
});
