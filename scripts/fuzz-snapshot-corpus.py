#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz-snapshot target (Fuzz/Corpus/fuzz-snapshot): one snapshot
file per shipped scenario, as a daemon's compaction writes it. A private clarityd (the debug
build) compacts every device after each journal line; each scenario's steps are sent to a device
of its app as requests (an `event`, an `intent`, a `clock.advance`; `parallel` branches one
after another, `expect` and `waitUntil` skipped), and the device's newest snapshot is kept.

    scripts/fuzz-snapshot-corpus.py [CLARITYD_BINARY]    # default .build/debug/clarityd
"""
import glob, json, os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from clarityd_client import Client

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/clarityd")
out = os.path.join(root, "Fuzz/Corpus/fuzz-snapshot")
work = tempfile.mkdtemp(prefix="clarity-corpus-")
config = os.path.join(work, "clarityd.json")
with open(config, "w") as f:
    json.dump({"compactJournalAfter": 1}, f)
sock = os.path.join(work, "clarityd.sock")
state = os.path.join(work, "state")
daemon = subprocess.Popen([binary, "--config", config, "--socket", sock, "--state-dir", state], stderr=subprocess.DEVNULL)
try:
    for _ in range(600):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    client = Client(sock, timeout=60)

    def send(device, step):
        if "event" in step:
            client.call("event", dict(step["event"], device=device))
        elif "intent" in step:
            client.call("intent", dict(step["intent"], device=device))
        elif "advance" in step:
            client.call("clock.advance", {"device": device, "seconds": step["advance"]})
        elif "parallel" in step:
            for branch in step["parallel"]:
                for inner in branch:
                    send(device, inner)

    os.makedirs(out, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(root, "config/scenarios/*.json"))):
        scenario = json.load(open(path))
        device = os.path.basename(path)[: -len(".json")]
        params = {"device": device, "app": scenario.get("app", "clarity")}
        for key in ("start", "timezone", "seed", "config"):
            if key in scenario:
                params[key] = scenario[key]
        if "apps" in scenario:
            params["apps"] = scenario["apps"]
            del params["app"]
        answer = client.call("device.create", params)
        if "error" in answer:
            sys.exit(f"{device}: device.create: {answer['error']}")
        for step in scenario["steps"]:
            send(device, step)
        snapshots = sorted(glob.glob(os.path.join(state, "devices", f"{device}.*.snapshot")), key=os.path.getmtime)
        if not snapshots:
            sys.exit(f"{device}: no snapshot was written")
        shutil.copy(snapshots[-1], os.path.join(out, f"{device}.snapshot"))
        print(f"{device}.snapshot  {os.path.getsize(snapshots[-1])} bytes")
finally:
    daemon.terminate()
    daemon.wait()
    shutil.rmtree(work, ignore_errors=True)
