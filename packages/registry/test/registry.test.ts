import type { Diagnostic } from "@skillshelf/core";
import { createSkillRegistry, type RegistryChange, type RegistryScope } from "@skillshelf/registry";
import { describe, expect, it } from "vitest";
import { candidate, fakeProvider, never } from "./_providers.js";

const codes = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((diagnostic) => diagnostic.code);

function recorder() {
  const diagnostics: Diagnostic[] = [];
  const changes: RegistryChange[] = [];
  return {
    diagnostics,
    changes,
    onDiagnostic: (diagnostic: Diagnostic) => diagnostics.push(diagnostic),
  };
}

describe("registering providers", () => {
  it("refuses the reserved name and a duplicate in one layer, but not in another layer", () => {
    const registry = createSkillRegistry();
    expect(() => registry.registerProvider(fakeProvider("runtime", () => []).create)).toThrow(
      expect.objectContaining({ code: "provider_reserved" }),
    );
    registry.registerProvider(fakeProvider("local", () => []).create);
    expect(() => registry.registerProvider(fakeProvider("local", () => []).create)).toThrow(
      expect.objectContaining({ code: "provider_duplicate" }),
    );
    expect(() =>
      registry.registerProvider(fakeProvider("local", () => []).create, { scope: { id: "agent" } }),
    ).not.toThrow();
    expect(() =>
      registry.registerProvider(() => ({ name: "", list: () => [], get: () => undefined })),
    ).toThrow(expect.objectContaining({ code: "provider_invalid" }));
  });

  it("aborts the registration's signal when it fails or is disposed", () => {
    const registry = createSkillRegistry();
    const failing = fakeProvider("runtime", () => []);
    expect(() => registry.registerProvider(failing.create)).toThrow();
    expect(failing.control?.signal.aborted).toBe(true);
    const thrown = new Error("factory broke");
    let seen: AbortSignal | undefined;
    expect(() =>
      registry.registerProvider((control) => {
        seen = control.signal;
        throw thrown;
      }),
    ).toThrow(thrown);
    expect(seen?.aborted).toBe(true);
    const good = fakeProvider("good", () => []);
    const dispose = registry.registerProvider(good.create);
    expect(good.control?.signal.aborted).toBe(false);
    dispose();
    expect(good.control?.signal.aborted).toBe(true);
    expect(good.control?.signal.reason).toMatchObject({ message: "disposed" });
  });

  it("lets invalidate() work only while that exact registration is live", () => {
    const registry = createSkillRegistry();
    const changes: RegistryChange[] = [];
    registry.onChange((change) => {
      changes.push(change);
    });
    const first = fakeProvider("local", () => []);
    const dispose = registry.registerProvider(first.create);
    first.control?.invalidate();
    dispose();
    const second = fakeProvider("local", () => []);
    registry.registerProvider(second.create);
    first.control?.invalidate();
    second.control?.invalidate();
    expect(changes.map((change) => change.type)).toEqual([
      "provider-registered",
      "invalidated",
      "provider-disposed",
      "provider-registered",
      "invalidated",
    ]);
    expect(changes.map((change) => change.revision)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("runtime skills", () => {
  it("keeps the first registration of a name per layer and gives a duplicate a no-op disposer", async () => {
    const log = recorder();
    const registry = createSkillRegistry({ onDiagnostic: log.onDiagnostic });
    const dispose = registry.register({
      name: "notes",
      description: "Take notes.",
      content: "First.",
    });
    const duplicate = registry.register({
      name: "notes",
      description: "Other notes.",
      content: "Second.",
    });
    expect(codes(log.diagnostics)).toEqual(["runtime_duplicate"]);
    duplicate();
    expect(await registry.get("notes")).toMatchObject({
      content: "First.",
      provider: "runtime",
      invocation: { modelInvocable: true, userInvocable: true },
    });
    dispose();
    expect(await registry.get("notes")).toBeUndefined();
  });

  it("refuses an invalid runtime skill", () => {
    const registry = createSkillRegistry();
    expect(() => registry.register({ name: "Not Kebab", description: "x", content: "x" })).toThrow(
      expect.objectContaining({ code: "skill_invalid" }),
    );
    expect(() => registry.register({ name: "ok", description: " ", content: "x" })).toThrow(
      expect.objectContaining({ code: "skill_invalid" }),
    );
    expect(() =>
      registry.register({ name: "ok", description: "x", content: "x", rank: Number.NaN }),
    ).toThrow(expect.objectContaining({ code: "skill_invalid" }));
  });
});

describe("merging", () => {
  it("orders by rank, then registration order, then each provider's own order, and reports the losers", async () => {
    const registry = createSkillRegistry();
    registry.registerProvider(
      fakeProvider("first", () => [
        candidate("first", "shared", 300),
        candidate("first", "twice", 300),
        candidate("first", "twice", 300, { description: "second copy" }),
      ]).create,
    );
    registry.registerProvider(
      fakeProvider("second", () => [
        candidate("second", "shared", 300),
        candidate("second", "better", 100),
        candidate("second", "zeta", 900),
      ]).create,
    );
    registry.registerProvider(
      fakeProvider("third", () => [candidate("third", "better", 200)]).create,
    );
    registry.register({ name: "shared", description: "Runtime copy.", content: "x", rank: 300 });
    const snapshot = await registry.snapshot();
    expect(snapshot.skills.map((skill) => [skill.name, skill.provider])).toEqual([
      ["better", "second"],
      ["shared", "runtime"],
      ["twice", "first"],
      ["zeta", "second"],
    ]);
    expect(
      snapshot.shadowed.map((entry) => [entry.name, entry.loser.provider, entry.reason]),
    ).toEqual([
      ["better", "third", "rank"],
      ["shared", "first", "order"],
      ["shared", "second", "order"],
      ["twice", "first", "order"],
    ]);
    expect(codes(snapshot.diagnostics)).toEqual([
      "skill_shadowed",
      "skill_shadowed",
      "skill_shadowed",
      "skill_shadowed",
    ]);
    expect(snapshot.complete).toBe(true);
    expect((await registry.list()).map((skill) => skill.name)).toEqual([
      "better",
      "shared",
      "twice",
      "zeta",
    ]);
  });

  it("lets the nearest scope layer win outright, whatever the ranks", async () => {
    const registry = createSkillRegistry();
    const preset: RegistryScope = { id: "preset" };
    const agent: RegistryScope = { id: "agent", parent: preset };
    registry.registerProvider(
      fakeProvider("global", () => [
        candidate("global", "deploy", 1),
        candidate("global", "lint", 1),
      ]).create,
    );
    registry.registerProvider(
      fakeProvider("preset", () => [candidate("preset", "deploy", 900)]).create,
      { scope: preset },
    );
    registry.register(
      { name: "deploy", description: "Agent's own deploy.", content: "x", rank: 999 },
      { scope: agent },
    );
    expect((await registry.list()).map((skill) => [skill.name, skill.provider])).toEqual([
      ["deploy", "global"],
      ["lint", "global"],
    ]);
    expect(
      (await registry.list({ scope: preset })).map((skill) => [skill.name, skill.provider]),
    ).toEqual([
      ["deploy", "preset"],
      ["lint", "global"],
    ]);
    const forAgent = await registry.snapshot({ scope: agent });
    expect(forAgent.skills.map((skill) => [skill.name, skill.provider])).toEqual([
      ["deploy", "runtime"],
      ["lint", "global"],
    ]);
    expect(
      forAgent.shadowed.map((entry) => [entry.loser.provider, entry.winner.provider, entry.reason]),
    ).toEqual([
      ["global", "preset", "layer"],
      ["preset", "runtime", "layer"],
    ]);
  });
});

describe("containing provider failures", () => {
  it.each([
    [
      "a throw",
      () => {
        throw new Error("boom");
      },
    ],
    ["a rejection", () => Promise.reject(new Error("boom"))],
    [
      "a non-error throw",
      () => {
        throw 42;
      },
    ],
    ["a bad name", () => [candidate("bad", "Bad Name")]],
    ["an empty description", () => [candidate("bad", "x", 1, { description: " " })]],
    [
      "a non-boolean flag",
      () => [
        candidate("bad", "x", 1, {
          invocation: { modelInvocable: "yes" as unknown as boolean, userInvocable: true },
        }),
      ],
    ],
    ["a non-finite rank", () => [candidate("bad", "x", Number.POSITIVE_INFINITY)]],
    // issue 24, item 7: every field's type is checked, not only the required ones
    [
      "a whenToUse that is not a string",
      () => [candidate("bad", "x", 1, { whenToUse: 7 as unknown as string })],
    ],
    [
      "a path that is not a string",
      () => [candidate("bad", "x", 1, { path: ["a"] as unknown as string })],
    ],
    [
      "a resourceBase of no known shape",
      () => [candidate("bad", "x", 1, { resourceBase: { kind: "directory" } as never })],
    ],
    ["another provider's name", () => [candidate("someone-else", "x")]],
    ["something that is not a list", () => ({ nope: true }) as unknown as unknown[]],
  ])(
    "skips a provider answering with %s, serves the others and marks the read incomplete",
    async (_name, list) => {
      const log = recorder();
      const registry = createSkillRegistry({ onDiagnostic: log.onDiagnostic });
      registry.registerProvider(fakeProvider("bad", list as () => unknown[]).create);
      registry.registerProvider(fakeProvider("good", () => [candidate("good", "fine")]).create);
      const snapshot = await registry.snapshot();
      expect(snapshot.skills.map((skill) => skill.name)).toEqual(["fine"]);
      expect(snapshot.complete).toBe(false);
      expect(snapshot.diagnostics).toEqual([
        expect.objectContaining({ code: "provider_failed", details: { provider: "bad" } }),
      ]);
      expect(codes(log.diagnostics)).toEqual(["provider_failed"]);
    },
  );

  it("times out a provider that never answers and serves the rest", async () => {
    const registry = createSkillRegistry({ providerTimeoutMs: 30 });
    registry.registerProvider(fakeProvider("stuck", () => never()).create);
    registry.registerProvider(fakeProvider("good", () => [candidate("good", "fine")]).create);
    const snapshot = await registry.snapshot();
    expect(snapshot).toMatchObject({
      complete: false,
      skills: [expect.objectContaining({ name: "fine" })],
    });
    expect(snapshot.diagnostics[0]?.message).toContain("did not answer within 30 ms");
  });

  it("waits for a hung provider once, not at every read, and asks it again once it answers (issue 57, item 6)", async () => {
    const registry = createSkillRegistry({ providerTimeoutMs: 30 });
    let answer: ((candidates: readonly unknown[]) => void) | undefined;
    const stuck = fakeProvider("stuck", (call) =>
      call === 1
        ? new Promise<readonly unknown[]>((resolve) => {
            answer = resolve;
          })
        : [candidate("stuck", "late")],
    );
    registry.registerProvider(stuck.create);
    registry.registerProvider(fakeProvider("good", () => [candidate("good", "fine")]).create);
    const names = async () => (await registry.snapshot()).skills.map((skill) => skill.name);
    expect(await names()).toEqual(["fine"]);
    // the first list is still unanswered: the provider is skipped at once, not asked again
    const second = await registry.snapshot();
    expect(second.complete).toBe(false);
    expect(second.diagnostics).toEqual([
      expect.objectContaining({ code: "provider_failed", details: { provider: "stuck" } }),
    ]);
    expect(stuck.calls.list).toBe(1);
    answer?.([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await names()).toEqual(["fine", "late"]);
    expect(stuck.calls.list).toBe(2);
  });
});

describe("abort signals", () => {
  it("rejects a list at once when the caller aborts, even if a provider never settles", async () => {
    const registry = createSkillRegistry({ providerTimeoutMs: 60_000 });
    registry.registerProvider(fakeProvider("stuck", () => never()).create);
    const controller = new AbortController();
    const pending = registry.list({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user pressed escape")), 10);
    await expect(pending).rejects.toThrow("user pressed escape");
    await expect(registry.list({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("rejects a get when the caller aborts during the load, and re-checks after a cached selection", async () => {
    const registry = createSkillRegistry({ providerTimeoutMs: 60_000 });
    const provider = fakeProvider("slow", () => [candidate("slow", "deploy")], {
      get: () => never(),
    });
    registry.registerProvider(provider.create);
    await registry.list();
    const controller = new AbortController();
    const pending = registry.get("deploy", { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(registry.get("deploy", { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(provider.calls.list).toBe(1);
  });
});

describe("get", () => {
  it("returns undefined for an invalid name without asking any provider", async () => {
    const registry = createSkillRegistry();
    const provider = fakeProvider("local", () => [candidate("local", "deploy")]);
    registry.registerProvider(provider.create);
    expect(await registry.get("Not Valid")).toBeUndefined();
    expect(provider.calls).toEqual({ list: 0, get: 0 });
    expect(await registry.get("deploy")).toMatchObject({
      name: "deploy",
      content: "Body of deploy.",
    });
  });

  it("drops a stale definition under another name and invalidates while the registration is live", async () => {
    const registry = createSkillRegistry();
    const changes: RegistryChange[] = [];
    registry.onChange((change) => {
      changes.push(change);
    });
    const provider = fakeProvider("local", () => [candidate("local", "deploy")], {
      get: (item) => ({ ...item, name: "renamed", content: "x" }),
    });
    registry.registerProvider(provider.create);
    expect(await registry.get("deploy")).toBeUndefined();
    expect(changes.map((change) => change.type)).toEqual(["provider-registered", "invalidated"]);
  });

  it("contains a failing load and an invalid definition", async () => {
    const log = recorder();
    const registry = createSkillRegistry({ onDiagnostic: log.onDiagnostic });
    registry.registerProvider(
      fakeProvider("throws", () => [candidate("throws", "a")], {
        get: () => {
          throw new Error("disk gone");
        },
      }).create,
    );
    registry.registerProvider(
      fakeProvider("empty", () => [candidate("empty", "b")], {
        get: (item) => ({ ...item, content: 5 }),
      }).create,
    );
    expect(await registry.get("a")).toBeUndefined();
    expect(await registry.get("b")).toBeUndefined();
    expect(codes(log.diagnostics)).toEqual(["provider_failed", "provider_failed"]);
  });
});

describe("the catalog cache", () => {
  it("serves a repeated read from the cache and drops it on every change", async () => {
    const registry = createSkillRegistry();
    const provider = fakeProvider("local", () => [candidate("local", "deploy")]);
    const dispose = registry.registerProvider(provider.create);
    await registry.list({ cwd: "/w" });
    await registry.list({ cwd: "/w" });
    expect(provider.calls.list).toBe(1);
    await registry.list({ cwd: "/other" });
    expect(provider.calls.list).toBe(2);
    provider.control?.invalidate();
    await registry.list({ cwd: "/w" });
    expect(provider.calls.list).toBe(3);
    const runtime = registry.register({ name: "notes", description: "Notes.", content: "x" });
    await registry.list({ cwd: "/w" });
    expect(provider.calls.list).toBe(4);
    runtime();
    await registry.list({ cwd: "/w" });
    expect(provider.calls.list).toBe(5);
    dispose();
    expect(await registry.list({ cwd: "/w" })).toEqual([]);
  });

  it("never caches an incomplete observation", async () => {
    const registry = createSkillRegistry();
    const provider = fakeProvider("partial", () => ({
      candidates: [candidate("partial", "deploy")],
      complete: false,
    }));
    registry.registerProvider(provider.create);
    expect((await registry.snapshot()).complete).toBe(false);
    await registry.list();
    expect(provider.calls.list).toBe(2);
  });

  it("retries once when the revision moves during a read, and does not cache if it moves again", async () => {
    const registry = createSkillRegistry();
    const once = fakeProvider("once", (call) => {
      if (call === 1) once.control?.invalidate();
      return [candidate("once", "deploy")];
    });
    registry.registerProvider(once.create);
    expect((await registry.snapshot()).complete).toBe(true);
    expect(once.calls.list).toBe(2);
    await registry.list();
    expect(once.calls.list).toBe(2);

    const restless = createSkillRegistry();
    const always = fakeProvider("always", () => {
      always.control?.invalidate();
      return [candidate("always", "deploy")];
    });
    restless.registerProvider(always.create);
    const snapshot = await restless.snapshot();
    expect(snapshot).toMatchObject({
      complete: false,
      skills: [expect.objectContaining({ name: "deploy" })],
    });
    expect(always.calls.list).toBe(2);
    await restless.list();
    expect(always.calls.list).toBe(4);
  });

  it("keeps at most cacheSize catalogs, dropping the least recently used", async () => {
    const registry = createSkillRegistry({ cacheSize: 2 });
    const provider = fakeProvider("local", () => [candidate("local", "deploy")]);
    registry.registerProvider(provider.create);
    for (const cwd of ["/a", "/b", "/a", "/c", "/a", "/b"]) await registry.list({ cwd });
    expect(provider.calls.list).toBe(4);
    expect(() => createSkillRegistry({ cacheSize: 0 })).toThrow();
    expect(() => createSkillRegistry({ cacheSize: 1.5 })).toThrow();
  });
});

describe("change listeners", () => {
  it("cannot veto a change by throwing or rejecting, and every listener still hears it", async () => {
    const log = recorder();
    const registry = createSkillRegistry({ onDiagnostic: log.onDiagnostic });
    const heard: string[] = [];
    registry.onChange(() => {
      throw new Error("listener broke");
    });
    registry.onChange(() => Promise.reject(new Error("listener rejected")));
    const stop = registry.onChange((change) => {
      heard.push(change.type);
    });
    registry.register({ name: "notes", description: "Notes.", content: "x" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual(["runtime-registered"]);
    expect(await registry.get("notes")).toMatchObject({ name: "notes" });
    expect(codes(log.diagnostics)).toEqual(["listener_failed", "listener_failed"]);
    stop();
    registry.register({ name: "more", description: "More.", content: "x" });
    expect(heard).toEqual(["runtime-registered"]);
  });
});
