#!/usr/bin/env python3
"""Writes the seed corpora made from the shipped scenarios (config/scenarios), one file per
scenario in each:
- Fuzz/Corpus/fuzz-request/scenario-<name>: the scenario's steps as one batch of requests (an
  `event`, an `intent`, a `clock.advance`; `parallel` branches one after another, `expect` and
  `waitUntil` left out), opening with a `device.create` naming its app, which the target then runs;
- Fuzz/Corpus/fuzz-snapshot/<name>.snapshot: the snapshot a daemon's compaction writes once those
  requests ran on a device of the app (a private clarityd, the debug build, compacting every
  device after each journal line);
and Fuzz/Corpus/fuzz-backend/<backend>: The Phone's backend those devices used, its snapshot
file as the first line and its journal after it.

    scripts/fuzz-corpus.py [CLARITYD_BINARY]    # default .build/debug/clarityd
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

    def requests(step):
        if "event" in step:
            return [("event", step["event"])]
        if "intent" in step:
            return [("intent", step["intent"])]
        if "advance" in step:
            return [("clock.advance", {"seconds": step["advance"]})]
        if "parallel" in step:
            return [request for branch in step["parallel"] for inner in branch for request in requests(inner)]
        return []

    os.makedirs(out, exist_ok=True)
    request_corpus = os.path.join(root, "Fuzz/Corpus/fuzz-request")
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
        steps = [request for step in scenario["steps"] for request in requests(step)]
        batch = [{"jsonrpc": "2.0", "id": 1, "method": "device.create", "params": {"app": params.get("app", (params.get("apps") or ["clarity"])[0])}}]
        for method, request_params in steps:
            client.call(method, dict(request_params, device=device))
            batch.append({"jsonrpc": "2.0", "id": len(batch) + 1, "method": method, "params": request_params})
        with open(os.path.join(request_corpus, f"scenario-{device}"), "w") as f:
            f.write(json.dumps(batch[:64], separators=(",", ":")))
        snapshots = sorted(glob.glob(os.path.join(state, "devices", f"{device}.*.snapshot")), key=os.path.getmtime)
        if not snapshots:
            sys.exit(f"{device}: no snapshot was written")
        shutil.copy(snapshots[-1], os.path.join(out, f"{device}.snapshot"))
        print(f"{device}.snapshot  {os.path.getsize(snapshots[-1])} bytes")
    # The Phone's backend the thephone scenarios used: its snapshot line, then its journal.
    backends = os.path.join(state, "backends")
    backend_corpus = os.path.join(root, "Fuzz/Corpus/fuzz-backend")
    os.makedirs(backend_corpus, exist_ok=True)
    for snapshot in sorted(glob.glob(os.path.join(backends, "*.json"))):
        name = os.path.basename(snapshot)[: -len(".json")]
        stored = json.load(open(snapshot))
        journal = os.path.join(backends, f"{name}.{stored.get('journal') or 0}.journal")
        with open(os.path.join(backend_corpus, name), "w") as f:
            f.write(json.dumps(stored, separators=(",", ":"), sort_keys=True) + "\n")
            if os.path.exists(journal):
                f.write(open(journal).read())
        print(f"backend {name}  {os.path.getsize(os.path.join(backend_corpus, name))} bytes")
finally:
    daemon.terminate()
    daemon.wait()
    shutil.rmtree(work, ignore_errors=True)
