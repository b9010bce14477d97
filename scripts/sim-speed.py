#!/usr/bin/env python3
"""Simulated seconds per wall second (issue 20's benchmark): a month of Make Hay with a step
sample every hour, run as one scenario (`scenario.run`) by a clarityd built in release.

    swift build -c release
    python3 scripts/sim-speed.py "$(swift build -c release --show-bin-path)"

Starts a private daemon, runs the scenario five times, prints each run's wall time and the
best and median rate. The daemon's start and the scenario's upload are not counted in the
wall time of a run; the trace it answers (about 1,500 events) is."""
import json, os, socket, subprocess, sys, tempfile, time

DAYS = 30


def scenario():
    steps = [{"intent": {"name": "selectApps", "args": {"apps": ["com.burbn.instagram"]}}}]
    for _ in range(DAYS * 24):
        steps.append({"event": {"type": "health.sample", "kind": "steps", "value": 500}})
        steps.append({"advance": 3600})
    return {"name": "makehay-month", "app": "makehay", "start": "2026-01-05T00:00:00Z", "steps": steps}


def main():
    bin_dir = os.path.abspath(sys.argv[1])
    directory = tempfile.mkdtemp(prefix="sim-speed-")
    path = os.path.join(directory, "d.sock")
    daemon = subprocess.Popen(
        [os.path.join(bin_dir, "clarityd"), "--socket", path, "--state-dir", os.path.join(directory, "state"),
         "--remove-at-exit", directory],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.exists(path):
                break
            time.sleep(0.05)
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(path)
        lines = connection.makefile("rb")
        request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "scenario.run", "params": {"scenario": scenario()}})
        simulated = DAYS * 24 * 3600
        runs = []
        for _ in range(5):
            started = time.perf_counter()
            connection.sendall((request + "\n").encode())
            answer = json.loads(lines.readline())
            runs.append(time.perf_counter() - started)
            if not answer.get("result", {}).get("passed"):
                sys.exit(f"the scenario did not pass: {answer}")
        runs.sort()
        print("runs (s):", ", ".join(f"{run:.3f}" for run in runs))
        print(f"simulated: {simulated} s ({DAYS} days)")
        print(f"best: {simulated / runs[0]:.3g} simulated s per wall s; median: {simulated / runs[2]:.3g}")
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    main()
