import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { publish } from "@skillshelf/publish";
import { blobDigest } from "@skillshelf/sources";
import {
  startNpmRegistry,
  startOciRegistry,
  tarBytes,
  writeDockerAuth,
  writeImageLayout,
} from "@skillshelf/test-utils";
import { cliBin, sha256sumTree } from "./cli-bench.js";
import type { InstallableSkills } from "./corpus-tree.js";
import {
  type BenchOptions,
  median,
  medianRatio,
  timeSideBySide,
  timeSideBySideAsync,
  verdict,
} from "./measure.js";

/**
 * Where teams publish: `skillshelf install … --skill '*'` of a 50-skill set from a
 * local npm registry (Verdaccio) and a local OCI registry (the CNCF distribution registry), each
 * beside the floor in the same run — a bare `node -e 0` start (DESIGN §9's floor), the same bytes
 * fetched by an independent client of that registry (`npm pack`; `skopeo copy` to a folder),
 * unpacked with `tar` and hashed with `sha256sum`: target at most 2×. Then `publish` to a static site folder of 10, 50 and 250
 * skills: target linear (per skill at the largest at most 1.3× the middle).
 */
export async function runRegistriesBench(options: BenchOptions): Promise<string> {
  const dir = join(options.workDir, "registries");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // 50 at the default count; a smoke run's few
  const skills = Math.max(3, Math.min(50, Math.round(options.count / 200)));
  const set = skillSet(options.skills, join(dir, "set"), skills);
  const bin = cliBin();
  let run = 0;
  const fresh = () => mkdtempSync(join(dir, `run-${run++}-`));
  const rounds = options.rounds;
  const cli = (home: string, ...args: string[]) =>
    execFileSync(process.execPath, [bin, ...args], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, SKILLSHELF_HOME: join(home, "library") },
      stdio: "ignore",
    });

  console.log(`bench: ${skills} skills from a local npm registry, ${rounds} rounds side by side`);
  const npm = await startNpmRegistry();
  let npmTimes: Record<string, number[]>;
  try {
    writeFileSync(
      join(set, "package.json"),
      JSON.stringify({ name: "@bench/skills", version: "1.0.0" }),
    );
    await npm.publish(set);
    const npmrc = `@bench:registry=${npm.url}\n${npm.authLine}\n`;
    npmTimes = timeSideBySide(
      {
        install: () => {
          const home = fresh();
          writeFileSync(join(home, ".npmrc"), npmrc);
          cli(home, "install", "npm:@bench/skills@1.0.0", "--skill", "*", "--user", "--yes");
        },
        floor: () => {
          const home = fresh();
          execFileSync(process.execPath, ["-e", "0"]);
          writeFileSync(join(home, ".npmrc"), npmrc);
          execFileSync("npm", ["pack", "@bench/skills@1.0.0", "--silent"], {
            cwd: home,
            env: { PATH: process.env.PATH, HOME: home },
            stdio: "ignore",
          });
          unpackAndHash(home, join(home, "bench-skills-1.0.0.tgz"));
        },
      },
      rounds,
    );
  } finally {
    await npm.close();
  }

  console.log(`bench: ${skills} skills from a local OCI registry, ${rounds} rounds side by side`);
  const oci = await startOciRegistry({ tls: false });
  let ociTimes: Record<string, number[]>;
  try {
    const { image, layer } = pushImage(
      set,
      oci.host,
      `${oci.username}:${oci.password}`,
      join(dir, "layout"),
    );
    ociTimes = timeSideBySide(
      {
        install: () => {
          const home = fresh();
          writeDockerAuth(home, oci);
          cli(home, "install", `${oci.base}/${image}`, "--skill", "*", "--user", "--yes");
        },
        floor: () => {
          const home = fresh();
          execFileSync(process.execPath, ["-e", "0"]);
          execFileSync(
            "skopeo",
            [
              "copy",
              "--quiet",
              "--src-tls-verify=false",
              "--src-creds",
              `${oci.username}:${oci.password}`,
              `docker://${oci.host}/${image}`,
              `dir:${join(home, "image")}`,
            ],
            { stdio: "ignore" },
          );
          // skopeo's dir: transport names each blob by its digest
          unpackAndHash(home, join(home, "image", layer));
        },
      },
      rounds,
    );
  } finally {
    await oci.close();
  }

  const sizes = [10, 50, 250].map((size) => Math.max(2, Math.round((size * skills) / 50)));
  const publishing = [];
  for (const size of sizes) {
    const from = skillSet(options.skills, join(dir, `publish-${size}`), size);
    const times = await timeSideBySideAsync(
      { publish: () => publish({ folder: from, destination: `site:${fresh()}` }) },
      rounds,
    );
    const ms = median(times.publish ?? []);
    publishing.push({ size, ms, perSkill: (ms * 1000) / size });
  }
  const [, middle, largest] = publishing;
  const growth = (largest?.perSkill ?? 0) / (middle?.perSkill ?? 1);
  const line = (name: string, times: Record<string, number[]>, floor: string) => {
    const ratio = medianRatio(times.install ?? [], times.floor ?? []);
    return `${name}: ${median(times.install ?? []).toFixed(0)} ms against ${median(times.floor ?? []).toFixed(0)} ms (${floor}); median ratio ${ratio.toFixed(2)}×. Target at most 2×: ${verdict(ratio <= 2)}.`;
  };
  return [
    "## Where teams publish: npm and OCI registries, static sites",
    "",
    `\`skillshelf install … --skill '*' --user --yes\` of ${options.skills.describe(skills)} into a fresh home each run, from registries started on loopback, medians of ${rounds} rounds side by side:`,
    "",
    `- ${line("npm (Verdaccio), `npm:@bench/skills@1.0.0`", npmTimes, "`node -e 0`, `npm pack` of the same package, `tar -xzf`, `sha256sum` of the files")}`,
    `- ${line(`OCI (CNCF distribution registry), one image of the ${skills} skills`, ociTimes, "`node -e 0`, `skopeo copy` to a folder, `tar -xzf` of the layer, `sha256sum` of the files")}`,
    "",
    "`publish <folder> site:<dir>` (in-process), medians:",
    "",
    "| skills | ms | µs per skill |",
    "|---|---|---|",
    ...publishing.map(
      (row) => `| ${row.size} | ${row.ms.toFixed(1)} | ${row.perSkill.toFixed(0)} |`,
    ),
    "",
    `Target: linear, per skill at ${largest?.size} at most 1.3× per skill at ${middle?.size}: ${verdict(growth <= 1.3)} (${growth.toFixed(2)}×).`,
  ].join("\n");
}

// --- internal ---

/** `count` real skills under `dir/skills/`, each one the corpus's installable skills in turn. */
function skillSet(skills: InstallableSkills, dir: string, count: number): string {
  for (let index = 0; index < count; index++)
    skills.write(join(dir, "skills", `skill-${index}`), `skill-${index}`, index);
  return dir;
}

/** Unpack a gzipped tar into `home/tree` with `tar` and hash its files: the floor's reading. */
function unpackAndHash(home: string, archive: string): void {
  const tree = join(home, "tree");
  mkdirSync(tree);
  execFileSync("tar", ["-xzf", archive, "-C", tree]);
  sha256sumTree(tree);
}

/**
 * Push `set` as a plain one-layer image with skopeo (from an OCI layout written here), as a team
 * would ship a folder of skills in an image; returns its `repository:tag` and its layer's digest.
 */
function pushImage(
  set: string,
  host: string,
  credentials: string,
  layout: string,
): { readonly image: string; readonly layer: string } {
  const files = readdirSync(join(set, "skills"), { recursive: true, encoding: "utf8" })
    .map((name) => `skills/${name}`)
    .filter((path) => statSync(join(set, path)).isFile())
    .sort();
  const layer = gzipSync(
    tarBytes(files.map((path) => ({ path, content: readFileSync(join(set, path), "utf8") }))),
  );
  writeImageLayout(layout, layer, "1");
  execFileSync(
    "skopeo",
    [
      "copy",
      "--quiet",
      "--dest-tls-verify=false",
      "--dest-creds",
      credentials,
      `oci:${layout}:1`,
      `docker://${host}/bench/skills:1`,
    ],
    { stdio: "ignore" },
  );
  return { image: "bench/skills:1", layer: blobDigest(layer).slice(7) };
}
