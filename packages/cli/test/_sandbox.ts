import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  bareClone,
  CORPUS_DIR,
  gitEnv,
  gitRepo,
  skillFile,
  testEnvironment,
} from "@skillshelf/test-utils";
import { type CliRun, runCli, runCliAsync, runMain } from "./_run.js";

/** What a change test works in. */
export interface ChangeSandbox {
  readonly home: string;
  readonly cwd: string;
  readonly configDir: string;
  readonly env: Record<string, string>;
  /** Run skillshelf in the project, off a terminal, in this process (`main`). */
  readonly run: (...args: string[]) => Promise<CliRun>;
  /** Run skillshelf with its temporary folder at `tmp`, to see what staging leaves. */
  readonly runIn: (tmp: string, ...args: string[]) => CliRun;
  /** The same, without blocking this process (for loopback servers). */
  readonly runAsync: (...args: string[]) => Promise<CliRun>;
  /** The user scope's lock entries by id. */
  readonly userLock: () => Record<string, { digest: string; enabled: boolean; source: unknown }>;
  /** The names `list --json` shows for skills. */
  readonly skills: () => Promise<string[]>;
}

/** A private home, user library and project for the change commands; git runs with a clean config. */
export function changeSandbox(): ChangeSandbox {
  const { home, cwd, configDir } = testEnvironment();
  const env = { ...gitEnv(home), SKILLSHELF_HOME: configDir };
  const options = { cwd, env };
  return {
    home,
    cwd,
    configDir,
    env,
    run: (...args: string[]): Promise<CliRun> => runMain(args, options),
    runIn: (tmp: string, ...args: string[]): CliRun =>
      runCli(args, { cwd, env: { ...env, TMPDIR: tmp } }),
    runAsync: (...args: string[]): Promise<CliRun> => runCliAsync(args, options),
    userLock: (): Record<string, { digest: string; enabled: boolean; source: unknown }> => {
      const path = join(configDir, "lock.json");
      return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).packages : {};
    },
    skills: async (): Promise<string[]> =>
      (
        JSON.parse((await runMain(["list", "--json"], options)).stdout) as {
          skills: { name: string }[];
        }
      ).skills.map((skill) => skill.name),
  };
}

/** A bare git repository holding two skills, `skills/pdf` and `skills/tidy`; its path. */
export function twoSkillsRepo(): string {
  return bareClone(
    gitRepo([
      {
        tree: {
          "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files."),
          "skills/tidy/SKILL.md": skillFile("tidy", "Tidy a folder."),
        },
      },
    ]).path,
  );
}

/** A Claude Code plugin from the corpus, its manifest and skills put together in a new folder. */
export function corpusClaudePlugin(into: string): string {
  const plugin = join("anthropics-claude-plugins-official", "plugins", "frontend-design");
  mkdirSync(into, { recursive: true });
  cpSync(join(CORPUS_DIR, "plugins", plugin), into, { recursive: true });
  cpSync(join(CORPUS_DIR, "skills", plugin), into, { recursive: true });
  return into;
}

/** The `code`s of a change command's JSON diagnostics and step refusals. */
export function codesOf(run: CliRun): string[] {
  const result = JSON.parse(run.stdout) as {
    plan?: { steps: { refusal?: { code: string } }[] };
    diagnostics: { code: string }[];
  };
  return [
    ...(result.plan?.steps.flatMap((step) => (step.refusal ? [step.refusal.code] : [])) ?? []),
    ...result.diagnostics.map((diagnostic) => diagnostic.code),
  ];
}

/** Every file under `dir`, as text (to look for what must never be written, such as a credential). */
export function everyFileText(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, "utf8"));
}
