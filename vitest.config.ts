import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { projects: ["packages/*", "packages/cli/e2e", "tools"] },
});
