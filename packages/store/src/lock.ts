import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  errnoCode,
  parseJsonDocument,
  readRegularFile,
  SkillshelfError,
} from "@skillshelf/core";
import { lockSync } from "proper-lockfile";
import { assertScopeFolders } from "./_scope-folders.js";
import { packagesDir } from "./scopes.js";
import type { ScopeTarget } from "./types.js";

/** A held scope lock, as the function run under it sees it. */
export interface ScopeLock {
  /** The scope's `packages/` folder. */
  readonly dir: string;
  /** Findings of taking the lock, such as a recovered dead holder's lock (`lock_recovered`). */
  readonly diagnostics: readonly Diagnostic[];
  /** Throws `locked` if another process has taken the lock over meanwhile. */
  assertHeld(): void;
}

/** Who holds a lock: written into the lock folder right after it is taken. */
interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly token: string;
  readonly since: string;
}

/** A lock whose folder was not touched for this long is stale even if its holder cannot be checked. */
const STALE_MS = 60_000;

/**
 * Run `fn` holding the scope's lock (`packages/.lock`, taken with `proper-lockfile`; the owner's
 * pid, host and start time are recorded inside it). A live holder makes this throw `locked` at
 * once, with the holder in `details`. A dead holder's lock (same host, process gone, or a lock not
 * refreshed for a minute) is removed, reported as `lock_recovered`, and taken. Creates the
 * `packages/` folder; refuses library folders that are symlinks (`library_symlinked`, see
 * `assertScopeFolders`). Locks do not nest: taking a scope's lock twice in one process is `locked`
 * too.
 */
export function withScopeLock<T>(target: ScopeTarget, fn: (lock: ScopeLock) => T): T {
  assertScopeFolders(target.environment, target.scope);
  const dir = packagesDir(target.environment, target.scope);
  mkdirSync(dir, { recursive: true });
  const lockDir = join(dir, ".lock");
  const ownerPath = join(lockDir, "owner.json");
  const diagnostics: Diagnostic[] = [];
  const token = randomBytes(8).toString("hex");
  let compromised = false;
  const release = acquire(dir, lockDir, diagnostics, () => {
    compromised = true;
  });
  try {
    const owner: LockOwner = {
      pid: process.pid,
      hostname: hostname(),
      token,
      since: new Date().toISOString(),
    };
    writeFileSync(ownerPath, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
    return fn({
      dir,
      diagnostics,
      assertHeld: () => {
        if (compromised || readOwner(lockDir)?.token !== token)
          throw new SkillshelfError(
            "locked",
            `the lock on ${dir} was taken over by another operation`,
            {
              path: lockDir,
              hint: "nothing more was written; review the scope and retry",
            },
          );
      },
    });
  } finally {
    if (readOwner(lockDir)?.token === token) {
      rmSync(ownerPath, { force: true });
      try {
        release();
      } catch {
        // the lock folder is already gone: nothing left to release
      }
    }
  }
}

// --- internal ---

function acquire(
  dir: string,
  lockDir: string,
  diagnostics: Diagnostic[],
  onCompromised: () => void,
): () => void {
  const take = () =>
    lockSync(dir, { lockfilePath: lockDir, realpath: false, stale: STALE_MS, onCompromised });
  try {
    return take();
  } catch (error) {
    if (!isHeld(error)) throw error;
  }
  const recovered = recoverDeadLock(dir, lockDir);
  if (recovered !== undefined) {
    diagnostics.push(recovered);
    try {
      return take();
    } catch (error) {
      if (!isHeld(error)) throw error;
    }
  }
  const owner = readOwner(lockDir);
  throw new SkillshelfError(
    "locked",
    `another operation holds the lock on ${dir}${owner === undefined ? "" : ` (process ${owner.pid} on ${owner.hostname} since ${owner.since})`}`,
    {
      path: lockDir,
      hint: "retry when the other operation finishes",
      details: owner === undefined ? {} : { ...owner },
    },
  );
}

function isHeld(error: unknown): boolean {
  const code = errnoCode(error);
  return code === "ELOCKED" || code === "ENOTEMPTY";
}

/**
 * Remove the lock if its holder is dead, under a short-lived recovery lock so that two processes
 * cannot both remove it (and one of them a fresh lock the other just took).
 */
function recoverDeadLock(dir: string, lockDir: string): Diagnostic | undefined {
  let release: () => void;
  try {
    release = lockSync(dir, { lockfilePath: `${lockDir}.recover`, realpath: false, stale: 10_000 });
  } catch (error) {
    if (isHeld(error)) return undefined;
    throw error;
  }
  try {
    const owner = readOwner(lockDir);
    const reason = deadReason(lockDir, owner);
    if (reason === undefined) return undefined;
    rmSync(lockDir, { recursive: true, force: true });
    return createDiagnostic(
      "warning",
      "lock_recovered",
      `recovered the lock on ${dir} from a ${reason}`,
      {
        path: lockDir,
        details:
          owner === undefined
            ? { reason }
            : { reason, pid: owner.pid, hostname: owner.hostname, since: owner.since },
      },
    );
  } finally {
    release();
  }
}

/** A scope's lock as it stands, read without taking it. */
export type ScopeLockState =
  | { readonly held: false }
  | {
      readonly held: true;
      readonly path: string;
      /** Why its holder is dead (the next writer takes it over), or `undefined` while it lives. */
      readonly stale: string | undefined;
      readonly pid?: number | undefined;
      readonly since?: string | undefined;
    };

/** Whether a scope's lock is held, and whether by a dead holder, without touching it. */
export function inspectScopeLock(
  target: Pick<ScopeTarget, "environment" | "scope">,
): ScopeLockState {
  const lockDir = join(packagesDir(target.environment, target.scope), ".lock");
  if (!existsSync(lockDir)) return { held: false };
  const owner = readOwner(lockDir);
  return {
    held: true,
    path: lockDir,
    stale: deadReason(lockDir, owner),
    ...(owner === undefined ? {} : { pid: owner.pid, since: owner.since }),
  };
}

function deadReason(lockDir: string, owner: LockOwner | undefined): string | undefined {
  if (owner !== undefined && owner.hostname === hostname() && !isAlive(owner.pid))
    return `holder that is no longer running (process ${owner.pid})`;
  const stats = statSync(lockDir, { throwIfNoEntry: false });
  if (stats !== undefined && stats.mtimeMs < Date.now() - STALE_MS)
    return "holder that stopped refreshing it";
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

// an owner record is a few dozen bytes; anything larger is not one
const MAX_OWNER_BYTES = 4096;

function readOwner(lockDir: string): LockOwner | undefined {
  try {
    const parsed = parseJsonDocument(
      readRegularFile(join(lockDir, "owner.json"), MAX_OWNER_BYTES).toString("utf8"),
    );
    if (!parsed.ok) return undefined;
    const value = parsed.value as Partial<LockOwner>;
    return typeof value.pid === "number" &&
      typeof value.hostname === "string" &&
      typeof value.token === "string"
      ? { pid: value.pid, hostname: value.hostname, token: value.token, since: String(value.since) }
      : undefined;
  } catch {
    // absent, or half-written by a holder that died while writing it: no usable owner either way
    return undefined;
  }
}
