// Preloaded into a child process (`node --require`) by the crash harness (src/crash.ts): counts
// every file-system write the process makes and kills it with SIGKILL right before the one
// numbered SKILLSHELF_KILL_AT_WRITE (0: never), so a test can stop a real command at any write.
// At exit it writes the count to SKILLSHELF_WRITE_COUNT_FILE, when that is set.
"use strict";
const fs = require("node:fs");

const killAt = Number(process.env.SKILLSHELF_KILL_AT_WRITE || "0");
const countFile = process.env.SKILLSHELF_WRITE_COUNT_FILE;
const writeFile = fs.writeFileSync;
let count = 0;

function written() {
  count += 1;
  if (count === killAt) process.kill(process.pid, "SIGKILL");
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
    written();
    return original.apply(this, args);
  };
}
const open = fs.openSync;
fs.openSync = function (path, flags, ...rest) {
  if (opensForWriting(flags)) written();
  return open.call(this, path, flags, ...rest);
};

if (countFile !== undefined)
  process.on("exit", () => {
    writeFile(countFile, String(count));
  });
