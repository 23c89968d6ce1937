import { createResources } from "@skillshelf/resources";
import { testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { createSkillServer, serveHttp } from "../src/index.js";

describe("serveHttp on an address other than loopback (issue 51, item 4)", () => {
  it("refuses to start without a token: nothing is served to a network unauthenticated", async () => {
    const environment = testEnvironment();
    const skills = createSkillServer({
      resources: createResources({ environment }),
      cwd: environment.cwd,
    });
    try {
      await expect(serveHttp(skills, { host: "0.0.0.0", port: 0 })).rejects.toMatchObject({
        code: "mcp_http_unprotected",
        details: { host: "0.0.0.0" },
      });
      const served = await serveHttp(skills, { host: "0.0.0.0", port: 0, token: "t".repeat(32) });
      await new Promise<void>((resolve) => served.close(() => resolve()));
    } finally {
      await skills.close();
    }
  });
});
