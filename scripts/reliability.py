#!/usr/bin/env python3
"""Issue 17's reproducers, run against the clarityd and clarityctl in BIN (docs/reliability.md).

Each probe starts a daemon of its own in a temporary directory, does what a hostile user did,
and prints one line of figures. Run it on two builds in one session to compare them:

    scripts/reliability.sh --bin OLD_BIN_DIR    then    scripts/reliability.sh --bin NEW_BIN_DIR

Python 3 standard library only. Linux (reads /proc for CPU time and memory).
"""
import json, os, signal, socket, subprocess, sys, tempfile, time

from clarityd_client import Client

BIN = os.path.abspath(sys.argv[1])
ONLY = set(sys.argv[2:])
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXED = json.load(open(os.path.join(ROOT, "config/scenarios/clarity-stale-verification-fixed.json")))
TICK = os.sysconf("SC_CLK_TCK")


class Daemon:
    def __init__(self, config=None, limit=None, directory=None):
        self.dir = directory or tempfile.mkdtemp(prefix="rel-", dir="/tmp")
        self.socket = os.path.join(self.dir, "d.sock")
        self.config = config
        self.limit = limit
        self.start()

    def start(self, limit=None):
        arguments = [os.path.join(BIN, "clarityd"), "--socket", self.socket, "--state-dir", os.path.join(self.dir, "state")]
        if self.config is not None:
            path = os.path.join(self.dir, "clarityd.json")
            json.dump(self.config, open(path, "w"))
            arguments += ["--config", path]
        limit = limit or self.limit
        if limit:
            arguments = ["sh", "-c", "ulimit -n %d && exec \"$0\" \"$@\"" % limit] + arguments
        self.log = open(os.path.join(self.dir, "log"), "a")
        self.started = time.time()
        self.process = subprocess.Popen(arguments, cwd=self.dir, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)
        self.socket_after = self.wait_for_socket()

    def wait_for_socket(self, timeout=120):
        while time.time() - self.started < timeout:
            if self.process.poll() is not None:
                return None
            try:
                Client(self.socket).close()
                return time.time() - self.started
            except OSError:
                time.sleep(0.005)
        return None

    def client(self, timeout=None):
        return Client(self.socket, timeout)

    def cpu(self):
        fields = open("/proc/%d/stat" % self.process.pid).read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def memory(self, key="VmRSS"):
        for line in open("/proc/%d/status" % self.process.pid):
            if line.startswith(key + ":"):
                return int(line.split()[1]) // 1024
        return -1

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def remove(self):
        self.stop(signal.SIGKILL)
        subprocess.run(["rm", "-rf", self.dir])


def probe(name):
    def wrap(function):
        if not ONLY or name in ONLY:
            started = time.time()
            try:
                figures = function()
            except Exception as error:  # a probe that breaks says so and the others go on
                figures = "failed: %r" % error
            print("%-22s %s   (%.0f s)" % (name, figures, time.time() - started), flush=True)
        return function
    return wrap


def writes_beside(daemon, seconds=5):
    writer = daemon.client(timeout=200)
    count, slowest, started = 0, 0.0, time.time()
    while time.time() - started < seconds:
        sent = time.time()
        writer.call("store.set", {"key": "k", "value": count})
        slowest = max(slowest, time.time() - sent)
        count += 1
    writer.close()
    return count, slowest


@probe("1-writes-exploring")
def writes_while_exploring():
    results = []
    for jobs in (None, 256):
        daemon = Daemon(config={"durability": "fsync"})
        explorer = daemon.client()
        params = {"scenario": FIXED, "schedules": 10_000_000}
        params.update({"timeLimit": 12} if jobs is None else {"jobs": jobs})
        explorer.send("scenario.explore", params)
        time.sleep(0.5)
        count, slowest = writes_beside(daemon)
        results.append("jobs %s: %d answers in 5 s, slowest %.3f s" % (jobs or "default", count, slowest))
        explorer.close()
        daemon.remove()
    return "; ".join(results)


@probe("2-caller-killed")
def caller_killed():
    daemon = Daemon()
    explorer = daemon.client()
    explorer.send("scenario.explore", {"scenario": FIXED, "schedules": 10_000_000})
    time.sleep(1)
    explorer.close()
    before = daemon.cpu()
    time.sleep(5)
    spent = daemon.cpu() - before
    daemon.remove()
    return "CPU in the 5 s after the caller left: %.1f s" % spent


@probe("2-standalone-kill9")
def standalone_killed():
    existing = set(d for d in os.listdir("/tmp") if d.startswith("clarityctl-"))
    ctl = subprocess.Popen([os.path.join(BIN, "clarityctl"), "explore", os.path.join(ROOT, "config/scenarios/clarity-stale-verification-fixed.json"),
                            "--schedules", "10000000", "--standalone"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(3)
    new = [d for d in os.listdir("/tmp") if d.startswith("clarityctl-") and d not in existing]
    pid = None
    for directory in new:
        try:
            pid = int(open("/tmp/%s/clarityd.sock.lock" % directory).read().strip())
        except (OSError, ValueError):
            pass
    ctl.kill()
    ctl.wait()
    time.sleep(3)
    alive = False
    if pid:
        try:
            state = open("/proc/%d/status" % pid).read()
            alive = "State:\tZ" not in state
        except OSError:
            alive = False
    left = [d for d in new if os.path.exists("/tmp/" + d)]
    if alive:
        os.kill(pid, signal.SIGKILL)
    for directory in left:
        subprocess.run(["rm", "-rf", "/tmp/" + directory])
    return "clarityd 3 s after kill -9 of clarityctl: %s; directories left: %d" % ("running" if alive else "gone", len(left))


@probe("2-scenario-flood")
def scenario_flood():
    daemon = Daemon()
    steps = [{"event": {"type": "lock" if i % 2 == 0 else "unlock"}} for i in range(9000)]
    line = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "scenario.run", "params": {"scenario": {"steps": steps, "name": "x" * 400_000}}}) + "\n").encode()
    peak = 0
    for _ in range(150):
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(daemon.socket)
        connection.sendall(line)
        connection.close()
        peak = max(peak, daemon.memory())
    asked = time.time()
    trivial = daemon.client(timeout=600).call("scenario.run", {"scenario": {"steps": [{"advance": 1}]}})
    waited = time.time() - asked
    peak = max(peak, daemon.memory("VmHWM"))
    daemon.remove()
    outcome = "answered" if "result" in trivial else "error %s" % trivial["error"]["code"]
    return "150 × %d KB scenario.run sent and closed: peak RSS %d MB; a trivial scenario.run %s after %.1f s" % (len(line) // 1024, peak, outcome, waited)


@probe("3-large-values")
def large_values():
    daemon = Daemon(config={"durability": "write"})
    client = daemon.client(timeout=120)
    value = "x" * 900_000
    for index in range(700):
        client.call("store.set", {"key": "big", "value": value})
    after_writes = daemon.memory()
    readers = []
    for _ in range(4):
        reader = daemon.client()
        reader.send("trace.export")
        readers.append(reader)
    time.sleep(10)
    after_exports = daemon.memory()
    subscribers, refused = [], 0
    kinds = ["k%d" % i for i in range(50_000)]
    for _ in range(200):
        subscriber = daemon.client(timeout=60)
        if "error" in subscriber.call("subscribe", {"kinds": kinds}):
            refused += 1
        subscribers.append(subscriber)
    after_subscribers = daemon.memory()
    daemon.remove()
    return "RSS after 700 × 900 KB writes %d MB; with 4 unread exports %d MB; 200 subscribers × 50 000 kinds: %d refused, RSS %d MB" % (
        after_writes, after_exports, refused, after_subscribers)


@probe("4-descriptors")
def descriptors():
    daemon = Daemon(config={"durability": "write"}, limit=256)
    client = daemon.client(timeout=60)
    failed = [i for i in range(300) if "error" in client.call("device.create", {"device": "d%d" % i})]
    client.close()
    status = daemon.stop()
    daemon.start(limit=150)
    if daemon.socket_after is None:
        restarted = "did not start (exit %s)" % daemon.process.poll()
    else:
        devices = daemon.client(timeout=120).call("device.list")["result"]
        restarted = "%d devices" % len(devices)
    daemon.remove()
    return "300 devices under ulimit -n 256: %d failed (first d%s); stop exit %s; restart under 150: %s" % (
        len(failed), failed[0] if failed else "-", status, restarted)


@probe("5-restart")
def restart():
    daemon = Daemon()
    client = daemon.client(timeout=600)
    client.call("activity.start", {"name": "q", "schedule": {"intervalStart": {"hour": 9}, "intervalEnd": {"hour": 9, "minute": 15}, "repeats": True},
                                   "events": {"e": {"applications": ["com.burbn.instagram"], "threshold": {"minute": 5}}}})
    client.call("event", {"type": "app.open", "app": "com.burbn.instagram"})
    for _ in range(66):
        client.call("clock.advance", {"seconds": 31622400})
    client.close()
    daemon.stop(signal.SIGKILL)
    daemon.start()
    socket_after = daemon.socket_after
    answered = None
    if socket_after is not None:
        asked = time.time()
        daemon.client(timeout=600).call("clock.now")
        answered = time.time() - daemon.started
    journal = os.path.getsize(os.path.join(daemon.dir, "state/devices/default.journal"))
    daemon.remove()
    return "66 × advance 1 year: journal %d B; after kill -9 the socket came in %.1f s, the device answered in %.1f s" % (
        journal, socket_after or -1, answered or -1)


@probe("6-sigterm-exploring")
def sigterm_while_exploring():
    daemon = Daemon()
    explorer = daemon.client(timeout=60)
    explorer.send("scenario.explore", {"scenario": FIXED, "schedules": 10_000_000, "jobs": 256})
    time.sleep(1)
    asked = time.time()
    daemon.process.send_signal(signal.SIGTERM)
    try:
        report = explorer.answer()
        answer = "stoppedBy %s" % report.get("result", {}).get("stoppedBy")
    except (EOFError, OSError):
        answer = "no answer"
    code = daemon.process.wait(60)
    took = time.time() - asked
    daemon.remove()
    return "SIGTERM while exploring: exit %d after %.1f s; the explorer got: %s" % (code, took, answer)


@probe("7-replay-memory")
def replay_memory():
    daemon = Daemon(config={"durability": "write", "maxReplaySteps": 0})
    if daemon.socket_after is None:  # a build from before maxReplaySteps: it replays everything anyway
        daemon.remove()
        daemon = Daemon(config={"durability": "write"})
    client = daemon.client(timeout=120)
    for index in range(200_000):
        client.send("store.set", {"key": "k%d" % (index % 100), "value": index})
        if index % 64 == 63:
            for _ in range(64):
                client.answer()
    before = daemon.memory()
    daemon.stop(signal.SIGKILL)
    daemon.start()
    daemon.client(timeout=600).call("clock.now")
    time.sleep(1)
    after = daemon.memory()
    daemon.remove()
    return "200 000-line journal: RSS %d MB before kill -9, %d MB once replayed" % (before, after)
