import { mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  errnoCode,
  hostTag,
  isProcessRunning,
  parseJsonDocument,
  processIdentity,
  randomHex,
  readRegularFile,
  removeTree,
  SkillshelfError,
  siblingName,
} from "@skillshelf/core";
import { discard } from "./_discard.js";
import { assertScopeFolders } from "./_scope-folders.js";
import { packagesDir } from "./scopes.js";
import type { ScopeTarget } from "./types.js";

/** A held scope lock, as the function run under it sees it. */
export interface ScopeLock {
  /** The scope's `packages/` folder. */
  readonly dir: string;
  /** Findings of taking the lock, such as a recovered dead holder's lock (`lock_recovered`). */
  readonly diagnostics: readonly Diagnostic[];
  /** Throws `locked` if the lock is no longer this holder's. */
  assertHeld(): void;
}

/** Who holds a lock: in the lock folder from the moment the lock exists. */
interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly token: string;
  readonly since: string;
  /** When the holder process started, as this host counts it (Linux), to tell a reused pid. */
  readonly start?: string | undefined;
}

/**
 * Run `fn` holding the scope's lock, `packages/.lock`: a folder holding the owner's pid, host,
 * process start and a token, renamed into place whole, so a lock always names its holder. A live
 * holder makes this throw `locked` at once, with the holder in `details`; a lock is never taken
 * from a live process, however long it has held it (a stopped or slow writer keeps it). A dead
 * holder's lock (on this host, its process gone or its pid now another process's) is removed,
 * reported as `lock_recovered`, and taken; a lock from another host is left to a person, since
 * its holder cannot be seen from here. Creates the `packages/` folder; refuses library folders
 * that are symlinks (`library_symlinked`, see `assertScopeFolders`). Locks do not nest: taking a
 * scope's lock twice in one process is `locked` too. Installs no signal handler.
 */
export function withScopeLock<T>(target: ScopeTarget, fn: (lock: ScopeLock) => T): T {
  assertScopeFolders(target.environment, target.scope);
  const dir = packagesDir(target.environment, target.scope);
  makeFolder(dir);
  const lockDir = join(dir, LOCK);
  const { start } = processIdentity();
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    token: randomHex(8),
    since: new Date().toISOString(),
    ...(start === undefined ? {} : { start }),
  };
  const diagnostics: Diagnostic[] = [];
  take(dir, lockDir, owner, diagnostics);
  try {
    return fn({
      dir,
      diagnostics,
      assertHeld: () => {
        if (readOwner(lockDir)?.token !== owner.token)
          throw new SkillshelfError(
            "lock_lost",
            `the lock on ${dir} was taken over by another operation`,
            { path: lockDir },
          );
      },
    });
  } finally {
    if (readOwner(lockDir)?.token === owner.token) discard(dir, "lock", lockDir);
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
  const lockDir = join(packagesDir(target.environment, target.scope), LOCK);
  const found = inspectLock(lockDir);
  if (found.state === "free") return { held: false };
  const holder = found.state === "held" ? found.holder : undefined;
  return {
    held: true,
    path: lockDir,
    stale: found.state === "broken" ? BROKEN : deadReason(found.holder),
    ...(holder === undefined ? {} : { pid: holder.pid, since: holder.since }),
  };
}

// --- internal ---

const LOCK = ".lock";
// taken only while a dead holder's lock is removed, so two recoverers never both remove one
const RECOVER = ".lock.recover";
const BROKEN = "lock folder that names no holder";
// a lock freed and taken again by others this many times in a row is reported as held
const ATTEMPTS = 8;

/**
 * What is at a lock's path, each answer one a racing process cannot make wrong: `free` (nothing,
 * or an empty folder the next rename replaces, or a lock that went while it was read), `held`
 * (with its owner) or `broken` (a folder with no owner record in it, which nobody releases).
 */
function inspectLock(
  path: string,
): { state: "free" } | { state: "held"; holder: LockOwner } | { state: "broken" } {
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    return errnoCode(error) === "ENOTDIR" ? { state: "broken" } : { state: "free" };
  }
  if (names.length === 0) return { state: "free" };
  let text: string;
  try {
    text = readRegularFile(join(path, "owner.json"), MAX_OWNER_BYTES).toString("utf8");
  } catch (error) {
    // released and perhaps taken again since the listing: look again
    if (errnoCode(error) === "ENOENT" && names.includes("owner.json")) return { state: "free" };
    return { state: "broken" };
  }
  const holder = parseOwner(text);
  return holder === undefined ? { state: "broken" } : { state: "held", holder };
}

function take(dir: string, lockDir: string, owner: LockOwner, diagnostics: Diagnostic[]): void {
  let holder: LockOwner | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (placeLock(dir, lockDir, owner)) return;
    const found = inspectLock(lockDir);
    if (found.state === "free") continue;
    holder = found.state === "held" ? found.holder : undefined;
    if (found.state === "held" && deadReason(found.holder) === undefined) break;
    const recovered = recoverDeadLock(dir, lockDir, owner);
    if (recovered !== undefined) diagnostics.push(recovered);
  }
  throw new SkillshelfError(
    "locked",
    `another operation holds the lock on ${dir}${holder === undefined ? "" : ` (process ${holder.pid} on ${holder.hostname} since ${holder.since})`}`,
    {
      path: lockDir,
      details: {
        ...holder,
        // the catalogue's hint names the other host and the lock to remove if it runs nothing
        ...(holder !== undefined && holder.hostname !== hostname()
          ? { otherHost: holder.hostname, lock: lockDir }
          : {}),
      },
    },
  );
}

/**
 * Make `path` a lock folder holding `owner` in one rename of a folder prepared beside it (a
 * `.lock.tmp-…` leftover if this process dies first, which the next writer removes). False when
 * a lock is already there.
 */
function placeLock(dir: string, path: string, owner: LockOwner): boolean {
  const prepared = join(dir, siblingName("lock", "tmp"));
  mkdirSync(prepared);
  try {
    writeFileSync(join(prepared, "owner.json"), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
    renameSync(prepared, path);
    return true;
  } catch (error) {
    removeTree(prepared);
    // ENOENT: the holder settling the folder took the prepared folder for a leftover
    if (["EEXIST", "ENOTEMPTY", "ENOTDIR", "ENOENT"].includes(errnoCode(error) ?? "")) return false;
    throw error;
  }
}

/**
 * Remove the lock if its holder is dead, holding the recovery lock, so that two processes cannot
 * both remove it (and one of them a fresh lock the other just took): looked at again inside, a
 * dead holder's lock or a broken one cannot change until it is removed. A recovery lock whose
 * own holder died, or that is broken, is cleared for the next attempt.
 */
function recoverDeadLock(dir: string, lockDir: string, owner: LockOwner): Diagnostic | undefined {
  const recoverDir = join(dir, RECOVER);
  if (!placeLock(dir, recoverDir, owner)) {
    const recovering = inspectLock(recoverDir);
    if (
      recovering.state === "broken" ||
      (recovering.state === "held" && deadReason(recovering.holder) !== undefined)
    )
      discard(dir, "lock", recoverDir);
    return undefined;
  }
  try {
    const found = inspectLock(lockDir);
    if (found.state === "free") return undefined;
    const holder = found.state === "held" ? found.holder : undefined;
    const reason = holder === undefined ? BROKEN : deadReason(holder);
    if (reason === undefined) return undefined;
    discard(dir, "lock", lockDir);
    return createDiagnostic(
      "warning",
      "lock_recovered",
      `recovered the lock on ${dir} from a ${reason}`,
      {
        path: lockDir,
        details:
          holder === undefined
            ? { reason }
            : { reason, pid: holder.pid, hostname: holder.hostname, since: holder.since },
      },
    );
  } finally {
    discard(dir, "lock", recoverDir);
  }
}

/**
 * Why a lock's holder is dead, or `undefined` while it may live: judged by the process (its pid,
 * and its start time where this host keeps one), never by a clock. A holder on another host may
 * live for all this host can see.
 */
function deadReason(holder: LockOwner): string | undefined {
  if (holder.hostname !== hostname()) return undefined;
  return isProcessRunning({ pid: holder.pid, start: holder.start, host: hostTag() })
    ? undefined
    : `holder that is no longer running (process ${holder.pid})`;
}

// an owner record is a few dozen bytes; anything larger is not one
const MAX_OWNER_BYTES = 4096;

function readOwner(lockDir: string): LockOwner | undefined {
  try {
    return parseOwner(
      readRegularFile(join(lockDir, "owner.json"), MAX_OWNER_BYTES).toString("utf8"),
    );
  } catch {
    // absent: no owner
    return undefined;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) return undefined;
  const value = parsed.value as Partial<LockOwner> | null;
  return typeof value?.pid === "number" &&
    typeof value.hostname === "string" &&
    typeof value.token === "string"
    ? {
        pid: value.pid,
        hostname: value.hostname,
        token: value.token,
        since: String(value.since),
        ...(typeof value.start === "string" ? { start: value.start } : {}),
      }
    : undefined;
}

/**
 * `mkdir -p dir`, failing with the real reason: Node's recursive mkdir says `ENOENT` for a folder
 * it may not create on a read-only file system, so the last folder is made again to say `EROFS`.
 */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
    mkdirSync(dir);
  }
}
