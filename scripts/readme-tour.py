#!/usr/bin/env python3
"""Runs the README's tour and compares what each command printed with what the README shows.

    scripts/readme-tour.py BIN_DIR            (e.g. .build/debug; a daemon of its own is started)

Every ```console block is run in order: each `$ …` line as a shell command (clarityctl from
BIN_DIR on the PATH, a fresh daemon's socket in CLARITYD_SOCKET), and the lines after it, up to
the next `$ `, must appear in its output, in order (the README leaves lines out, marked with `…`
or not; a `…` inside a line stands for any text); lines the README leaves to the machine (pid, uptime, paths, the
descriptor budget, timings) are not compared. Prints each mismatch; exit status 1 if any.
"""
import os, re, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bin_dir = os.path.abspath(sys.argv[1])
machine = re.compile(r"^\s*(pid|uptime|socket|stateDir|open|limit|journalLimit|threads|schedules/s|steps/s|decisions/s|seconds):")

def blocks(text):
    for match in re.finditer(r"```console\n(.*?)```", text, re.S):
        yield match.group(1).rstrip("\n").split("\n")

def matches(expected, actual):
    """Whether the lines `expected` shows appear in `actual`, in order: the README leaves lines
    out (with a `…` line, or silently), and a `…` inside a line stands for any text."""
    def same(line, got):
        if machine.match(line):
            return True
        pattern = "^" + ".*".join(re.escape(part) for part in line.split("…")) + "$"
        return re.match(pattern, got) is not None
    position = 0
    for line in expected:
        if line.strip().startswith("…"):
            continue
        while position < len(actual) and not same(line, actual[position]):
            position += 1
        if position == len(actual):
            return False
        position += 1
    return True

def main():
    work = tempfile.mkdtemp(prefix="tour-", dir="/tmp")
    env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"], XDG_RUNTIME_DIR=work + "/run",
               XDG_STATE_HOME=work + "/state", CLARITYD_SOCKET=work + "/run/clarityd.sock")
    os.makedirs(work + "/run"); os.makedirs(work + "/state")
    daemon = subprocess.Popen([bin_dir + "/clarityd"], cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)
    failures = 0
    try:
        for block in blocks(open(os.path.join(root, "README.md")).read()):
            commands = []
            for line in block:
                if line.startswith("$ "):
                    commands.append((line[2:], []))
                elif commands:
                    commands[-1][1].append(line)
            for command, expected in commands:
                shown = command.split("  #")[0]
                result = subprocess.run(shown, shell=True, cwd=root, env=env, capture_output=True, text=True)
                actual = (result.stdout + result.stderr).rstrip("\n").split("\n") if (result.stdout + result.stderr) else []
                if not matches(expected, actual):
                    failures += 1
                    print("✗ $ " + command)
                    print("  expected:\n    " + "\n    ".join(expected))
                    print("  got:\n    " + "\n    ".join(actual[:40]))
    finally:
        daemon.terminate()
        daemon.wait()
    print("%d commands did not print what the README shows" % failures if failures else "every command printed what the README shows")
    return 1 if failures else 0

sys.exit(main())
