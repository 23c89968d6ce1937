import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { errnoCode } from "./errors.js";
import { sha256 } from "./hash.js";

/**
 * A process as a leftover of it can name it: its pid, when it started as this host counts it
 * (clock ticks since boot, from Linux's `/proc/<pid>/stat`; `undefined` elsewhere), and a short
 * tag of the host, so a pid reused by another program, or one from another machine sharing a
 * folder, is never taken for it.
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly start: string | undefined;
  readonly host: string;
}

/** The identity of process `pid` on this host (default: this process). */
export function processIdentity(pid: number = process.pid): ProcessIdentity {
  return { pid, start: processStart(pid), host: hostTag() };
}

/**
 * True when the process an identity names may still run: on another host, always (it cannot be
 * seen from here); on this one, while its pid runs and, where start times are known, started then.
 */
export function isProcessRunning(identity: ProcessIdentity): boolean {
  if (identity.host !== hostTag()) return true;
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    if (errnoCode(error) !== "EPERM") return false;
  }
  const start = processStart(identity.pid);
  return identity.start === undefined || start === undefined || start === identity.start;
}

/** A host's tag (default: this host's): the first 8 hex digits of its name's sha256. */
export function hostTag(name: string = hostname()): string {
  return sha256(name).slice(0, 8);
}

// --- internal ---

function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name (field 2) may hold spaces and parentheses: count from the last `)`
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}
