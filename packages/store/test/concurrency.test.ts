import { join } from "node:path";
import { digestTree } from "@skillshelf/core";
import { packagesDir, readScopeState } from "@skillshelf/store";
import { recoverScope } from "@skillshelf/store/writers";
import { expect, it } from "vitest";
import { RETRY_WHILE_LOCKED, runStoreChild } from "./_child.js";
import { stagePackage, storeEnvironment } from "./_store.js";

const PROCESSES = 8;

/** Each child installs p<i> and q<i>, removes q<i>, then installs q<i> again at 2.0.0. */
const WORKER = `${RETRY_WHILE_LOCKED}
const { environment, packages } = args;
const target = { environment, scope: "user" };
const facts = (id) => store.observeCopyFacts({ ...target, id });
const install = (staged) => retry(() => store.installPackage({ ...target, staged, origin: { source: { type: "local", path: staged.dir } }, reviewed: facts(staged.id) }));
install(packages.p);
install(packages.q1);
retry(() => store.removePackage({ ...target, id: packages.q1.id, reviewed: facts(packages.q1.id) }));
install(packages.q2);
console.log("done");
`;

it("eight processes installing and removing different packages in one scope lose nothing", async () => {
  const environment = storeEnvironment();
  const work = Array.from({ length: PROCESSES }, (_, index) => {
    const packages = {
      p: { id: `p${index}`, ...stagePackage({ id: `p${index}`, version: "1.0.0" }) },
      q1: { id: `q${index}`, ...stagePackage({ id: `q${index}`, version: "1.0.0" }) },
      q2: { id: `q${index}`, ...stagePackage({ id: `q${index}`, version: "2.0.0" }) },
    };
    return { packages, exit: runStoreChild(WORKER, { environment, packages }) };
  });
  const exits = await Promise.all(work.map((item) => item.exit));
  for (const exit of exits)
    expect({ code: exit.code, stderr: exit.stderr, stdout: exit.stdout }).toEqual({
      code: 0,
      stderr: "",
      stdout: "done\n",
    });
  const state = readScopeState(environment, "user");
  if (!state.ok) throw new Error("state unreadable");
  const ids = Object.keys(state.value.state.installed).sort();
  expect(ids).toEqual(
    Array.from({ length: PROCESSES }, (_, i) => [`p${i}`, `q${i}`])
      .flat()
      .sort(),
  );
  for (const { packages } of work) {
    expect(state.value.state.installed[packages.p.id]?.contentDigest).toBe(packages.p.digest);
    expect(state.value.state.installed[packages.q2.id]?.contentDigest).toBe(packages.q2.digest);
  }
  for (const id of ids)
    expect(digestTree(join(packagesDir(environment, "user"), id)).digest).toBe(
      state.value.state.installed[id]?.contentDigest,
    );
  expect(recoverScope({ environment, scope: "user" })).toEqual([]);
});
