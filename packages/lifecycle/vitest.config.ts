import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: { name: "lifecycle", include: ["test/**/*.test.ts"], environment: "node" },
});
