#!/usr/bin/env python3
"""A soak of clarityd (issue 22, docs/reliability.md "Soak"): scripts/soak.sh runs it.

    soak.py BIN MINUTES

100 devices across every app the daemon runs; users sending mixed events, intents, clock
advances and App Group writes; an exploration always running; trace subscribers that come and
go; clients that connect and drop, some mid-line; a device removed and made again every few
seconds (apps keep what users give them: The Phone keeps every unlock for ever, as its seed
does, so on devices that live for ever a soak would measure the apps' data, not the daemon); a
kill -9 and restart at half time. Each minute: requests answered, p99 latency, the daemon's RSS
and threads (each the minute's peak of samples taken every second), its open descriptors and
the bytes of its state directory (every device's and backend's journal and snapshot), as a
table. Checks, failing the run (exit 1): every acknowledged App Group write reads back after
the restart and at the end; RSS, descriptors and journal bytes stay flat once warmed up: in the
second half of each daemon run no sample is more than 10 % over that half's first. Each
device's trace is bounded (`traceBytes` 256 KiB) and journals are compacted into snapshots every
500 lines, so both fill to a level during the warm-up; a longer soak (`--minutes 60`) judges
flatness on more samples.

Python 3 standard library only; Linux (/proc).
"""
import json, os, random, signal, socket, subprocess, sys, tempfile, threading, time

from clarityd_client import Client

BIN = os.path.abspath(sys.argv[1])
MINUTES = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = json.load(open(os.path.join(ROOT, "config/scenarios/clarity-stale-verification-fixed.json")))
DEVICES = 100
USERS = 4
MINUTE = 60.0
RECYCLE_SECONDS = 3.0   # one device removed and made again this often: each lives ~5 minutes


class Daemon:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="soak-", dir="/tmp")
        self.socket = os.path.join(self.dir, "d.sock")
        self.state = os.path.join(self.dir, "state")
        config = os.path.join(self.dir, "clarityd.json")
        # Journals are compacted into snapshots every 500 lines: their bytes stay bounded.
        # Each device's trace keeps at most 256 KiB (100 devices: 25 MiB), so the traces fill
        # within the warm-up and memory can level off where it will stay.
        json.dump({"compactJournalAfter": 500, "traceBytes": 262144}, open(config, "w"))
        self.arguments = [os.path.join(BIN, "clarityd"), "--socket", self.socket, "--state-dir", self.state, "--config", config]
        self.start()

    def start(self):
        self.log = open(os.path.join(self.dir, "log"), "a")
        self.process = subprocess.Popen(self.arguments, cwd=self.dir, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)
        started = time.time()
        while time.time() - started < 300:
            if self.process.poll() is not None:
                raise RuntimeError("clarityd exited with %s; log %s" % (self.process.returncode, self.dir + "/log"))
            try:
                Client(self.socket, timeout=30).close()
                return time.time() - started
            except OSError:
                time.sleep(0.01)
        raise RuntimeError("clarityd did not listen within 300 s")

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def rss_mb_and_threads(self):
        """The daemon's RSS in MB and its threads, from one read of /proc/<pid>/status."""
        fields = {}
        for line in open("/proc/%d/status" % self.process.pid):
            name, _, value = line.partition(":")
            fields[name] = value.split()
        return int(fields["VmRSS"][0]) / 1024, int(fields["Threads"][0])

    def descriptors(self):
        return len(os.listdir("/proc/%d/fd" % self.process.pid))

    def journal_kb(self):
        total = 0
        for folder, _, files in os.walk(self.state):
            for name in files:
                try:
                    total += os.path.getsize(os.path.join(folder, name))
                except OSError:
                    pass
        return total / 1024


class Soak:
    def __init__(self, daemon):
        self.daemon = daemon
        self.lock = threading.Lock()
        self.latencies = []          # this minute's, seconds
        self.requests = 0
        self.errors = {}             # code -> count, this minute
        self.acknowledged = {}       # (device, suite, key) -> value
        self.failures = []
        self.stopping = False
        self.paused = threading.Event()   # set while the daemon is down
        self.devices = []            # (name, app, suite, intents)
        self.generation = {}         # device -> how many times it was made again
        self.created = {}            # device -> its device.create params
        self.peak_rss = 0.0          # MB, this minute's highest of the samples taken each second
        self.peak_threads = 0        # this minute's most threads

    def sampler(self):
        """Samples RSS and threads each second: one reading a minute swings by ±10 MB as
        explorations allocate and free, so the table shows each minute's peak."""
        while not self.stopping:
            if not self.paused.is_set():
                try:
                    rss, threads = self.daemon.rss_mb_and_threads()
                except (OSError, KeyError):
                    rss, threads = 0.0, 0   # the daemon is being killed and started again
                with self.lock:
                    self.peak_rss = max(self.peak_rss, rss)
                    self.peak_threads = max(self.peak_threads, threads)
            time.sleep(1.0)

    def note(self, started, answer):
        with self.lock:
            self.latencies.append(time.time() - started)
            self.requests += 1
            if "error" in answer:
                code = answer["error"]["code"]
                self.errors[code] = self.errors.get(code, 0) + 1

    def setup(self):
        client = Client(self.daemon.socket, timeout=30)
        catalog = client.call("daemon.catalog")["result"]
        apps = [app for app in catalog["apps"] if app.get("available")]
        for index in range(DEVICES):
            app = apps[index % len(apps)]
            name = "soak%03d" % index
            params = {"device": name, "app": app["name"], "seed": index}
            if app["name"] == "thephone" and index % 2:
                params["platform"] = "android"
            answer = client.call("device.create", params)
            if "error" in answer:
                raise RuntimeError("device.create %s: %s" % (params, answer["error"]))
            self.created[name] = params
            self.generation[name] = 0
            self.devices.append((name, app["name"], app.get("appGroup") or "group.soak", [i["name"] for i in app["intents"]]))
        client.close()

    def connected(self, work):
        """Runs work(client) over and over, reconnecting after a restart."""
        while not self.stopping:
            if self.paused.is_set():
                time.sleep(0.05)
                continue
            try:
                client = Client(self.daemon.socket, timeout=30)
            except OSError:
                time.sleep(0.05)
                continue
            try:
                while not self.stopping and not self.paused.is_set():
                    work(client)
            except (OSError, EOFError, ValueError):
                pass
            finally:
                client.close()

    def user(self, seed):
        rng = random.Random(seed)
        counter = [0]

        def step(client):
            name, app, suite, intents = rng.choice(self.devices)
            kind = rng.random()
            if kind < 0.35:
                counter[0] += 1
                key, value = "soak-%d" % seed, counter[0]
                with self.lock:
                    generation = self.generation[name]
                started = time.time()
                answer = client.call("store.set", {"device": name, "suite": suite, "key": key, "value": value})
                self.note(started, answer)
                if "result" in answer:
                    with self.lock:
                        # A write to a device made again since is gone with the device it went to.
                        if self.generation[name] == generation:
                            self.acknowledged[(name, suite, key)] = value
                return
            if kind < 0.6:
                event = rng.choice([{"type": "lock"}, {"type": "unlock"}, {"type": "app.open", "app": "com.burbn.instagram"},
                                    {"type": "app.close", "app": "com.burbn.instagram"}, {"type": "network.offline"},
                                    {"type": "network.online"}, {"type": "web.open", "domain": "reddit.com"}])
                method, params = "event", dict(event, device=name)
            elif kind < 0.75:
                method, params = "clock.advance", {"device": name, "seconds": rng.choice([30, 60, 600])}
            elif kind < 0.9 and intents:
                method, params = "intent", {"device": name, "name": rng.choice(intents), "args": {}}
            else:
                method, params = rng.choice([("device.state", {"device": name}), ("trace.get", {"device": name, "last": 20}),
                                             ("shields.get", {"device": name})])
            started = time.time()
            self.note(started, client.call(method, params))

        self.connected(step)

    def explorer(self):
        def explore(client):
            client.sock.settimeout(600)
            started = time.time()
            self.note(started, client.call("scenario.explore", {"scenario": SCENARIO, "schedules": 300}))

        self.connected(explore)

    def subscriber(self, seed):
        rng = random.Random(seed)

        def follow(client):
            name = rng.choice(self.devices)[0]
            client.call("subscribe", {"device": name, "topics": ["trace"]})
            client.sock.settimeout(0.5)
            until = time.time() + rng.uniform(5, 20)
            while time.time() < until and not self.stopping and not self.paused.is_set():
                try:
                    client.file.readline()
                except (socket.timeout, TimeoutError):
                    pass
            raise EOFError("leaving")   # a new connection, another device

        self.connected(follow)

    def churner(self, seed):
        rng = random.Random(seed)
        while not self.stopping:
            if self.paused.is_set():
                time.sleep(0.05)
                continue
            try:
                client = Client(self.daemon.socket, timeout=10)
                if rng.random() < 0.3:
                    client.sock.sendall(b'{"jsonrpc":"2.0","id":1,"method":"daemon.pi')   # dropped mid-line
                else:
                    started = time.time()
                    self.note(started, client.call("daemon.ping"))
                client.close()
            except (OSError, EOFError, ValueError):
                pass
            time.sleep(0.02)

    def recycler(self, seed):
        """Every RECYCLE_SECONDS, removes one device and makes it again, as it was first made."""
        rng = random.Random(seed)
        while not self.stopping:
            time.sleep(RECYCLE_SECONDS)
            if self.paused.is_set() or self.stopping:
                continue
            name = rng.choice(self.devices)[0]
            try:
                client = Client(self.daemon.socket, timeout=30)
                started = time.time()
                self.note(started, client.call("device.remove", {"device": name}))
                # Only now: a write acknowledged before this went to the device just removed, and
                # one whose sender read the generation after this goes to the device made next.
                with self.lock:
                    self.generation[name] += 1
                    for entry in [entry for entry in self.acknowledged if entry[0] == name]:
                        del self.acknowledged[entry]
                started = time.time()
                self.note(started, client.call("device.create", self.created[name]))
                client.close()
            except (OSError, EOFError, ValueError):
                pass

    def verify(self, when):
        client = Client(self.daemon.socket, timeout=60)
        with self.lock:
            writes = dict(self.acknowledged)
        lost = []
        for (name, suite, key), value in writes.items():
            answer = client.call("store.get", {"device": name, "suite": suite, "key": key})
            got = answer.get("result", {}).get("value")
            # A later write of the same key may have been acknowledged after the snapshot above.
            if got is None or got < value:
                lost.append((name, key, value, got))
        client.close()
        if lost:
            self.failures.append("%s: %d of %d acknowledged writes lost, e.g. %s" % (when, len(lost), len(writes), lost[:3]))
        return len(writes), len(lost)


def p99(values):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def main():
    daemon = Daemon()
    soak = Soak(daemon)
    soak.setup()
    threads = [threading.Thread(target=soak.user, args=(seed,), daemon=True) for seed in range(USERS)]
    threads += [threading.Thread(target=soak.explorer, daemon=True)]
    threads += [threading.Thread(target=soak.subscriber, args=(100 + seed,), daemon=True) for seed in range(2)]
    threads += [threading.Thread(target=soak.churner, args=(200,), daemon=True)]
    threads += [threading.Thread(target=soak.recycler, args=(300,), daemon=True)]
    threads += [threading.Thread(target=soak.sampler, daemon=True)]
    for thread in threads:
        thread.start()
    print("clarityd soak: %s, %.0f min, %d devices, %d users, 1 explorer, 2 subscribers, 1 churner, a device made again "
          "every %.0f s; kill -9 at half time" % (BIN, MINUTES, DEVICES, USERS, RECYCLE_SECONDS), flush=True)
    print("%6s %9s %8s %8s %7s %6s %11s  %s" % ("minute", "requests", "p99 ms", "RSS MB", "threads", "fds", "state KB", "note"),
          flush=True)
    rows, run, restarted = [], 0, False
    started = time.time()
    minute = 0
    while minute < MINUTES:
        time.sleep(max(0.0, started + (minute + 1) * MINUTE - time.time()))
        minute += 1
        with soak.lock:
            latencies, requests, errors = soak.latencies, soak.requests, soak.errors
            soak.latencies, soak.requests, soak.errors = [], 0, {}
            rss, threads = soak.peak_rss, soak.peak_threads
            soak.peak_rss, soak.peak_threads = 0.0, 0
        row = {"minute": minute, "requests": requests, "p99": p99(latencies), "rss": rss, "threads": threads,
               "fds": daemon.descriptors(), "journal": daemon.journal_kb(), "run": run, "note": ""}
        if errors:
            row["note"] = "errors " + " ".join("%d×%d" % (code, count) for code, count in sorted(errors.items()))
        if not restarted and minute >= MINUTES / 2:
            soak.paused.set()
            time.sleep(0.5)
            daemon.kill9()
            took = daemon.start()
            run += 1
            restarted = True
            verifying = time.time()
            checked, lost = soak.verify("after kill -9")
            answered = took + time.time() - verifying
            soak.paused.clear()
            row["note"] = ("kill -9: listening in %.1f s, every device answering in %.1f s; %d acknowledged writes checked, %d lost; "
                           % (took, answered, checked, lost)) + row["note"]
        rows.append(row)
        print("%6d %9d %8.1f %8.1f %7d %6d %11.0f  %s" % (minute, row["requests"], row["p99"], row["rss"], row["threads"], row["fds"],
                                                          row["journal"], row["note"]), flush=True)
    soak.stopping = True
    checked, lost = soak.verify("at the end")
    print("end: %d acknowledged writes checked, %d lost" % (checked, lost))
    # Flat: within each daemon run, its first half is warm-up (traces and journals fill to their
    # bounds); in the second half no sample may be more than 10 % over the first.
    for run_index in range(run + 1):
        samples = [row for row in rows if row["run"] == run_index]
        if run_index == 0 and restarted:
            samples = samples[:-1]   # the restart minute belongs to the next run's warm-up
        samples = samples[len(samples) // 2 :]
        for key, name in (("rss", "RSS"), ("fds", "descriptors"), ("journal", "state bytes")):
            values = [row[key] for row in samples]
            if len(values) >= 2 and max(values) > 1.10 * values[0]:
                soak.failures.append("run %d: %s grows after warm-up: %.0f, then up to %.0f" % (run_index + 1, name, values[0], max(values)))
    daemon.process.send_signal(signal.SIGTERM)
    daemon.process.wait(timeout=60)
    if soak.failures:
        print("FAILED:\n  " + "\n  ".join(soak.failures))
        print("daemon log: %s/log" % daemon.dir)
        sys.exit(1)
    subprocess.run(["rm", "-rf", daemon.dir])
    print("passed: every acknowledged write present; RSS, descriptors and state bytes flat (within 10 %) after warm-up")


main()
