#!/usr/bin/env python3
"""A recording's memory (issue 38, item 6): `record.start`, 150 `contacts.set` of 11 000 contacts
(about 1 MB a line), `record.stop`, against the clarityd in BIN_DIR (built in release):

    swift build -c release
    python3 scripts/record-memory.py "$(swift build -c release --show-bin-path)" [CONFIG_JSON] [PATH]

CONFIG_JSON is added to the daemon's clarityd.json (e.g. '{"maxRecordingBytes": 300000000}');
with PATH, a `record.stop` refused as too large to answer is asked again with `path`. Prints the
first request refused, the daemon's RSS growth over the 150 requests, the stop's time, the
daemon's peak RSS (VmHWM), the answer, and what a second `record.stop` says (whether the
recording was kept until handed over). Linux only (/proc)."""
import json, os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clarityd_client import Client

bin_dir = sys.argv[1]
extra = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
path = sys.argv[3] if len(sys.argv) > 3 else None
work = tempfile.mkdtemp(prefix="record-memory-")
socket_path = os.path.join(work, "clarityd.sock")
config = os.path.join(work, "clarityd.json")
with open(config, "w") as file:
    json.dump({"maxRequestBytes": 2000000, **extra}, file)
log = open(os.path.join(work, "clarityd.log"), "w")
daemon = subprocess.Popen(
    [os.path.join(bin_dir, "clarityd"), "--socket", socket_path, "--state-dir", os.path.join(work, "state"), "--config", config],
    stdout=log, stderr=log)
for _ in range(600):
    if os.path.exists(socket_path):
        break
    time.sleep(0.05)
client = Client(socket_path)
client.call("daemon.ping")


def rss(field="VmRSS"):
    """The daemon's `field` from /proc, in MB."""
    with open(f"/proc/{daemon.pid}/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) // 1024


def short(message):
    return json.dumps(message)[:400]


client.call("record.start")
base = rss()
refused = None
for round in range(150):
    contacts = [{"id": f"c{round}-{n:05d}", "name": f"Contact number {n:05d} of round {round:03d}", "phone": f"+1555{n:07d}"}
                for n in range(11000)]
    answer = client.call("event", {"type": "contacts.set", "contacts": contacts})
    if "error" in answer and refused is None:
        refused = (round, answer["error"])
grown = rss() - base
print("first request refused:", f"#{refused[0] + 1}: {short(refused[1])}" if refused else "none")
print(f"RSS over the 150 requests: {base} -> {base + grown} MB (+{grown} MB)")
started = time.time()
client.send("record.stop", {})
line = client.file.readline()
answer = json.loads(line)
print(f"record.stop: {time.time() - started:.1f} s, answer {len(line)} bytes, peak RSS {rss('VmHWM')} MB")
print("  " + short(answer["error"] if "error" in answer else {k: v for k, v in answer["result"].items() if k != "scenario"}))
if "error" in answer and path:
    started = time.time()
    written = client.call("record.stop", {"path": os.path.abspath(path)})
    print(f"record.stop with path: {time.time() - started:.1f} s, peak RSS {rss('VmHWM')} MB")
    print("  " + short(written))
print("a second record.stop:", short(client.call("record.stop").get("error")))
client.close()
daemon.terminate()
daemon.wait()
