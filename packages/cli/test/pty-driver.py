"""Run a command in a real pseudo-terminal, answer its prompts, and report what it printed.

Usage: python3 pty-driver.py '<json>' with {"argv", "cwd", "env", "answers": [[text, reply]],
"timeout"}: each reply is typed once `text` has appeared after the previous answer. Prints
{"status", "output", "timedOut"} as JSON. Test tooling only: the standard library's pty module.
"""
import fcntl
import json
import os
import pty
import select
import struct
import sys
import termios
import time

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    # a terminal of 40 rows and 120 columns, as a person's would be
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.chdir(spec["cwd"])
    os.execve(spec["argv"][0], spec["argv"], spec["env"])

output = b""
seen = 0
answers = list(spec.get("answers", []))
deadline = time.time() + spec.get("timeout", 30)
timed_out = False
while True:
    if time.time() > deadline:
        os.kill(pid, 9)
        timed_out = True
        break
    ready, _, _ = select.select([fd], [], [], 0.05)
    if fd in ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    while answers:
        wanted = answers[0][0].encode()
        at = output.find(wanted, seen)
        if at == -1:
            break
        seen = at + len(wanted)
        time.sleep(0.2)
        for key in answers[0][1]:
            os.write(fd, key.encode())
            time.sleep(0.05)
        answers.pop(0)
_, status = os.waitpid(pid, 0)
print(json.dumps({
    "status": os.waitstatus_to_exitcode(status),
    "output": output.decode("utf8", "replace"),
    "timedOut": timed_out,
}))
