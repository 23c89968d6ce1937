// Preloaded into a child process (`node --require`) by the crash harness (src/crash.ts): counts
// every file-system write the process makes and kills it with SIGKILL right before the one
// numbered SKILLSHELF_KILL_AT_WRITE (0: never), so a test can stop a real command at any write;
// or sends itself a signal before its first write to a given path (`signalAtWrite`).
// At exit it writes the count to SKILLSHELF_WRITE_COUNT_FILE, when that is set.
"use strict";
const fs = require("node:fs");

const killAt = Number(process.env.SKILLSHELF_KILL_AT_WRITE || "0");
const countFile = process.env.SKILLSHELF_WRITE_COUNT_FILE;
// or: send SKILLSHELF_SIGNAL once, right before the first write to a path holding SKILLSHELF_SIGNAL_AT_PATH
const signalAt = process.env.SKILLSHELF_SIGNAL_AT_PATH;
const signal = process.env.SKILLSHELF_SIGNAL || "SIGINT";
const writeFile = fs.writeFileSync;
let count = 0;
let signalled = false;

function written(path) {
  count += 1;
  if (count === killAt) process.kill(process.pid, "SIGKILL");
  if (signalAt !== undefined && !signalled && typeof path === "string" && path.includes(signalAt)) {
    signalled = true;
    process.kill(process.pid, signal);
  }
}

// an open is a write when it may create or change the file
function opensForWriting(flags) {
  if (typeof flags === "string") return /[wa+]/.test(flags);
  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants;
  return (
    typeof flags === "number" && (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) !== 0
  );
}

const always = [
  "writeFileSync",
  "appendFileSync",
  "writeSync",
  "mkdirSync",
  "mkdtempSync",
  "renameSync",
  "rmSync",
  "rmdirSync",
  "unlinkSync",
  "symlinkSync",
  "linkSync",
  "copyFileSync",
  "chmodSync",
  "utimesSync",
];
for (const name of always) {
  const original = fs[name];
  fs[name] = function (...args) {
    written(args[0]);
    return original.apply(this, args);
  };
}
const open = fs.openSync;
fs.openSync = function (path, flags, ...rest) {
  if (opensForWriting(flags)) written(path);
  return open.call(this, path, flags, ...rest);
};

if (countFile !== undefined)
  process.on("exit", () => {
    writeFile(countFile, String(count));
  });
