#!/usr/bin/env python3
"""Simulated seconds per wall second for The Phone (issue 20's benchmark), two ways, against a
clarityd built in release:

  1. one user's week as a scenario (`scenario.run`, a private backend): an unlock every 15
     minutes of waking time (07:00–23:00), two minutes of use, then a lock; a sync every hour;
  2. three users (bob on Android) sharing the daemon's backend, in one group, driven over the socket in step
     (each request journalled, as a client of the daemon would drive them): the same week.

    swift build -c release
    python3 scripts/thephone-week.py "$(swift build -c release --show-bin-path)"

Prints each run's wall time and the rates. The daemon's start is not counted."""
import json, os, socket, subprocess, sys, tempfile, time

DAYS = 7
START = "2026-01-05T00:00:00Z"


def day_steps(last=False):
    """One day from midnight: asleep until 07:00, then 64 cycles of 15 minutes, asleep from 23:00
    (the last day stops at 23:00 Sunday, still in the week the leaderboard shows)."""
    steps = [{"advance": 7 * 3600}]
    for cycle in range(64):
        steps += [{"event": {"type": "unlock"}}, {"advance": 120}, {"event": {"type": "lock"}}, {"advance": 780}]
        if cycle % 4 == 3:
            steps.append({"intent": {"name": "sync", "args": {}}})
    if not last:
        steps.append({"advance": 3600})
    return steps


def setup_steps(platform="ios"):
    if platform == "android":
        return [{"event": {"type": "lock"}}, {"event": {"type": "unlock"}}, {"event": {"type": "lock"}}]
    return [
        {"intent": {"name": "installAutomation", "args": {"trigger": "unlock"}}},
        {"intent": {"name": "installAutomation", "args": {"trigger": "lock"}}},
        {"event": {"type": "lock"}},
        {"intent": {"name": "setup.begin", "args": {}}},
        {"event": {"type": "unlock"}},
        {"event": {"type": "lock"}},
    ]


def scenario():
    steps = setup_steps()
    for day in range(DAYS):
        steps += day_steps(last=day == DAYS - 1)
    return {"name": "thephone-week", "app": "thephone", "start": START, "steps": steps}


class Client:
    def __init__(self, path):
        self.connection = socket.socket(socket.AF_UNIX)
        self.connection.connect(path)
        self.lines = self.connection.makefile("rb")
        self.next = 0

    def call(self, method, params):
        self.next += 1
        self.connection.sendall((json.dumps({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params}) + "\n").encode())
        answer = json.loads(self.lines.readline())
        if "error" in answer:
            sys.exit(f"{method} {params}: {answer['error']}")
        return answer["result"]


def step_params(device, step):
    if "advance" in step:
        return "clock.advance", {"device": device, "seconds": step["advance"]}
    if "event" in step:
        return "event", dict(step["event"], device=device)
    return "intent", {"device": device, "name": step["intent"]["name"], "args": step["intent"]["args"]}


def main():
    bin_dir = os.path.abspath(sys.argv[1])
    directory = tempfile.mkdtemp(prefix="thephone-week-")
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
        client = Client(path)
        simulated = DAYS * 24 * 3600 - 3600
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            answer = client.call("scenario.run", {"scenario": scenario()})
            runs.append(time.perf_counter() - started)
            if not answer.get("passed"):
                sys.exit(f"the scenario did not pass: {answer}")
        runs.sort()
        print(f"1. one user's week as a scenario ({len(scenario()['steps'])} steps): runs (s):",
              ", ".join(f"{run:.3f}" for run in runs))
        print(f"   best: {simulated / runs[0]:.3g} simulated s per wall s; median: {simulated / runs[1]:.3g}")

        users = [("alice", "UTC"), ("bob", "Asia/Tokyo"), ("carol", "America/Los_Angeles")]
        platforms = {"alice": "ios", "bob": "android", "carol": "ios"}
        for name, zone in users:
            client.call("device.create", {"device": name, "app": "thephone", "start": START, "timezone": zone,
                                          "platform": platforms[name]})
        started = time.perf_counter()
        requests = 0
        for name, _ in users:
            for step in setup_steps(platforms[name]):
                client.call(*step_params(name, step))
                requests += 1
        group = client.call("intent", {"device": "alice", "name": "group.create", "args": {"name": "week"}})["result"]
        for name, _ in users[1:]:
            client.call("intent", {"device": name, "name": "group.join", "args": {"code": group["code"]}})
        for day in range(DAYS):
            for step in day_steps(last=day == DAYS - 1):
                for name, _ in users:
                    client.call(*step_params(name, step))
                    requests += 1
        wall = time.perf_counter() - started
        scores = {name: client.call("backend.scores", {"user": name}) for name, _ in users}
        board = client.call("backend.leaderboard", {"group": group["groupId"]})
        print(f"2. three users on the daemon's backend, in step: {requests} requests in {wall:.2f} s"
              f" ({requests / wall:.0f} requests/s)")
        print(f"   {simulated / wall:.3g} simulated s per wall s (each device's week); weekly scores:",
              "; ".join(f"{name} " + ", ".join(f"{row['weekStart']} {row['totalPoints']}" for row in rows)
                        for name, rows in scores.items()))
        print("   leaderboard:", "; ".join(f"{row['rank']}. {row['username']} {row['totalPoints']} ({row['status']})" for row in board))
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    main()
