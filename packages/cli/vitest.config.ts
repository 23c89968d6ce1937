import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: { name: "cli", include: ["test/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
});
