#!/usr/bin/env python3
"""The Phone's backend under many synced events (issue 38, item 5), against a clarityd built in
release: one thephone device signs its user up, then ROUNDS × `backend.sync` of EVENTS new events
each for that user (distinct client ids, a second apart, all within the last 7 days of the
backend's clock; `lastSync` at the clock, so that answers do not carry the events back); then
`kill -9` and a restart.

    swift build -c release
    python3 scripts/backend-sync.py "$(swift build -c release --show-bin-path)" [ROUNDS [EVENTS]]

Prints each sync's wall time, then how long the restart took to answer `daemon.ping` (the
socket exists only once the backends are restored) and `backend.events`' count after it.
Python 3 standard library only."""
import json, os, shutil, signal, subprocess, sys, tempfile, time, uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clarityd_client import Client as SpacedClient  # noqa: E402


class Client(SpacedClient):
    """Requests without spaces: 9,000 events then fit in a request line (1 MiB at most)."""

    def send(self, method, params=None):
        self.next += 1
        message = {"jsonrpc": "2.0", "id": self.next, "method": method}
        if params is not None:
            message["params"] = params
        self.sock.sendall((json.dumps(message, separators=(",", ":")) + "\n").encode())


def start(bin_dir, directory):
    """A daemon on `directory`'s socket and state; returns it and the seconds until it answered."""
    path = os.path.join(directory, "d.sock")
    log = open(os.path.join(directory, "clarityd.log"), "ab")
    started = time.perf_counter()
    daemon = subprocess.Popen(
        [os.path.join(bin_dir, "clarityd"), "--socket", path, "--state-dir", os.path.join(directory, "state")],
        stdout=subprocess.DEVNULL, stderr=log)
    while True:
        if daemon.poll() is not None:
            sys.exit(f"clarityd exited with {daemon.returncode}; see {directory}/clarityd.log")
        try:
            client = Client(path, timeout=600)
            if "result" in client.call("daemon.ping"):
                return daemon, client, time.perf_counter() - started
        except OSError:
            time.sleep(0.02)


def main():
    bin_dir = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 9000
    directory = tempfile.mkdtemp(prefix="backend-sync-")
    daemon = None
    try:
        daemon, client, _ = start(bin_dir, directory)
        answer = client.call("device.create", {"device": "alice", "app": "thephone"})
        if "error" in answer:
            sys.exit(f"device.create: {answer['error']}")
        now = client.call("backend.now")["result"]["timestamp"]
        total = rounds * count
        for round_number in range(rounds):
            events = [
                {"id": str(uuid.uuid4()), "eventType": "lock" if index % 2 == 0 else "unlock",
                 "timestamp": now - (total - round_number * count - index) * 1000, "source": "shortcut"}
                for index in range(count)]
            started = time.perf_counter()
            answer = client.call("backend.sync", {"user": "alice", "events": events, "lastSync": now})
            took = time.perf_counter() - started
            if "error" in answer:
                sys.exit(f"backend.sync: {answer['error']}")
            print(f"sync {round_number + 1:2d}: {len(answer['result']['confirmed'])} confirmed, "
                  f"{(round_number + 1) * count} stored, {took:.3f} s", flush=True)
        state = os.path.join(directory, "state", "backends")
        print("backend files:", ", ".join(f"{name} {os.path.getsize(os.path.join(state, name))} B"
                                          for name in sorted(os.listdir(state))))
        daemon.send_signal(signal.SIGKILL)
        daemon.wait()
        daemon, client, took = start(bin_dir, directory)
        stored = len(client.call("backend.events", {"user": "alice"})["result"])
        print(f"restart after kill -9: answering in {took:.2f} s; backend.events: {stored} (expected {total})")
    finally:
        if daemon is not None and daemon.poll() is None:
            daemon.terminate()
            daemon.wait()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
