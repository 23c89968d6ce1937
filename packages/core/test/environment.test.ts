import { join } from "node:path";
import { projectLibraryDir, resolveEnvironment, userLibraryDir } from "@skillshelf/core";
import { describe, expect, it } from "vitest";

describe("resolveEnvironment", () => {
  const home = "/home/ada";
  const cwd = "/work/project";

  it.each([
    // env, expected configDir
    [{}, "/home/ada/.config/skillshelf"],
    [{ XDG_CONFIG_HOME: "/xdg" }, "/xdg/skillshelf"],
    [{ XDG_CONFIG_HOME: "relative/xdg" }, "/home/ada/.config/skillshelf"],
    [{ XDG_CONFIG_HOME: "  " }, "/home/ada/.config/skillshelf"],
    [{ SKILLSHELF_HOME: "/shelf", XDG_CONFIG_HOME: "/xdg" }, "/shelf"],
    [{ SKILLSHELF_HOME: "shelf" }, "/work/project/shelf"],
    [{ SKILLSHELF_HOME: "" }, "/home/ada/.config/skillshelf"],
  ])("configDir for %j is %s", (env, expected) => {
    expect(resolveEnvironment({ cwd, home, env }).configDir).toBe(expected);
  });

  it("takes HOME from the injected env when no home is given", () => {
    expect(resolveEnvironment({ cwd, env: { HOME: "/home/grace" } }).home).toBe("/home/grace");
  });

  it("prefers an explicit configDir over every variable", () => {
    const environment = resolveEnvironment({
      cwd,
      home,
      configDir: "/explicit",
      env: { SKILLSHELF_HOME: "/shelf" },
    });
    expect(environment.configDir).toBe("/explicit");
    expect(userLibraryDir(environment)).toBe("/explicit");
  });

  it("resolves a relative cwd and places the project library under it", () => {
    const environment = resolveEnvironment({ cwd: "relative", home, env: {} });
    expect(environment.cwd).toBe(join(process.cwd(), "relative"));
    expect(projectLibraryDir(environment)).toBe(join(process.cwd(), "relative", ".skillshelf"));
  });
});
