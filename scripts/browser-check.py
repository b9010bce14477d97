#!/usr/bin/env python3
"""Loads what clarityctl draws in a real browser (headless Chromium) and checks what a person sees.

    scripts/browser-check.py BIN_DIR [OUT_DIR]     (e.g. .build/debug; a daemon of its own is started)

1. The HTML report of a shipped race (`clarityctl explore config/scenarios/clarity-stale-verification.json
   --html`): Chromium loads it from disk with no console message at all (an error, a warning or a
   log: the report's script says nothing), its script ran to the end (`<body data-ready="1">`),
   and the DOM after the script (`--dump-dom`) has a lane per process, the failing step, the
   shield's title as Clarity's ShieldConfiguration extension drew it (read from the run's own
   trace, not from the report) and the highlighted losing write.
2. The screen of a ScrollKitty device whose shield is up (`clarityctl screen -o screen.svg`):
   Chromium photographs the SVG and Tesseract reads the photograph back: the HP subtitle is
   there as ScrollKitty's extension drew it (`Instagram: 100/100 HP | Total: 100 HP`).

Writes the report, the SVG and both photographs (report.png, screen.png) to OUT_DIR (default: a
temporary directory), for docs/ and for a person to look at. Exit status 1 on any failed check.
Needs chromium and tesseract (scripts/install-browser.sh).
"""
import html, json, os, re, shutil, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bin_dir = os.path.abspath(sys.argv[1])
out = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="browser-", dir="/tmp")
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp(prefix="browser-daemon-", dir="/tmp")
env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"], XDG_RUNTIME_DIR=work + "/run",
           XDG_STATE_HOME=work + "/state", CLARITYD_SOCKET=work + "/run/clarityd.sock")
os.makedirs(work + "/run"); os.makedirs(work + "/state")
failures = []

def check(ok, what):
    print(("✓ " if ok else "✗ ") + what)
    if not ok:
        failures.append(what)

def ctl(*args, expect=0):
    result = subprocess.run(["clarityctl", *args], cwd=root, env=env, capture_output=True, text=True)
    if expect is not None and result.returncode != expect:
        sys.exit(f"clarityctl {' '.join(args)}: exit {result.returncode}\n{result.stdout}{result.stderr}")
    return result.stdout

def chromium(*args):
    """Chromium, headless, on a file: its stdout and what it logged of the page's console."""
    profile = tempfile.mkdtemp(prefix="chromium-", dir=work)
    result = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", *args],
        capture_output=True, text=True, timeout=120)
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    return result.stdout, console

daemon = subprocess.Popen([bin_dir + "/clarityd"], cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(200):
        if subprocess.run(["clarityctl", "daemon", "ping"], env=env, capture_output=True).returncode == 0:
            break
        time.sleep(0.05)

    # 1. The report of Clarity's shipped race.
    report = os.path.join(out, "report.html")
    ctl("explore", "config/scenarios/clarity-stale-verification.json", "--schedules", "200", "--html", report)
    size = os.path.getsize(report)
    started = time.monotonic()
    dom, console = chromium("--dump-dom", "file://" + report)
    loaded = time.monotonic() - started
    print(f"report: {size} bytes, loaded and dumped by Chromium in {loaded:.1f} s")
    check(console == [], "the report logs nothing to the console" + ("" if not console else ": " + "; ".join(console)))
    check(re.search(r'<body[^>]*data-ready="1"', dom) is not None, "the report's script ran to the end (body data-ready=1)")
    lanes = sorted(set(re.findall(r'data-lane="([^"]+)"', dom)))
    print("lanes: " + ", ".join(lanes))
    for lane in ["clarity.app", "clarity.monitor", "clarity.shieldConfiguration", "springBoard", "deviceActivity"]:
        check(lane in lanes, f"a lane for {lane}")
    check('data-failing="true"' in dom, "the failing step is marked")
    # Clarity's chain: the main app's stale read and the monitor's write it read (no write is lost).
    check(re.search(r'class="[^"]*\b(losing-write|last-write)\b', dom) is not None, "the write the failure read is highlighted")
    # The title Clarity's extension drew, from the run's own trace (not from the report).
    trace = json.loads(ctl("--json", "run", "config/scenarios/clarity-stale-verification.json", "--trace", expect=None))
    titles = [entry["title"] for entry in trace.get("trace", []) if entry.get("kind") == "shield.shown"]
    check(titles != [], "the run's trace has a shield drawn by the extension")
    for title in set(titles):
        drawn = [" ".join(re.findall(r">([^<]*)</tspan>", element))
                 for element in re.findall(r'data-part="shield-title">(.*?)</text>', dom)]
        check(html.escape(title, quote=False) in drawn, f"the report's screen shows the shield's title as drawn: {title!r}")
    # The photograph docs/ shows: steps[4], where the friction shield comes up over Instagram.
    chromium("--window-size=1400,2000", "--screenshot=" + os.path.join(out, "report.png"), "file://" + report + "#step-4")

    # 2. A ScrollKitty device's screen with its shield up.
    ctl("device", "create", "kitty", "--app", "scrollkitty")
    ctl("--device", "kitty", "intent", "selectApps", 'apps=["com.burbn.instagram"]')
    ctl("--device", "kitty", "event", "app.open", "--app", "com.burbn.instagram")
    svg = os.path.join(out, "screen.svg")
    ctl("--device", "kitty", "screen", "-o", svg)
    png = os.path.join(out, "screen.png")
    chromium("--window-size=390,844", "--screenshot=" + png, "file://" + svg)
    check(os.path.exists(png) and os.path.getsize(png) > 0, "Chromium photographed the screen")
    text = subprocess.run(["tesseract", png, "-"], capture_output=True, text=True).stdout
    print("read back: " + " / ".join(line for line in text.splitlines() if line.strip()))
    check("Instagram: 100/100 HP | Total: 100 HP" in text.replace("  ", " "), "the photograph shows the HP subtitle")
finally:
    daemon.terminate()
    daemon.wait()
    shutil.rmtree(work, ignore_errors=True)

print(f"written to {out}: report.html, report.png, screen.svg, screen.png")
sys.exit(1 if failures else 0)
