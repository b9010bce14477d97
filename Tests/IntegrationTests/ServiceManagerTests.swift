import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// clarityd as systemd's `Type=notify` service sees it: the datagrams on `$NOTIFY_SOCKET` (this
/// test plays systemd's side of it, so it runs wherever a Unix socket does), the unit file as
/// `systemd-analyze verify` reads it, and the launchd plist as a property list. The runs under a
/// real systemd need one (a user manager, which a container seldom has, or root to boot one in a
/// namespace): where ``HostTools``' probes say there is none, they are reported skipped, saying
/// why.
@Suite struct ServiceManagerTests {
    @Test func notifyReadyReloadingWatchdogAndStopping() throws {
        let notify = try NotifySocket()
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        defer { daemon.stop() }
        #expect(notify.until("READY=1") != nil, "READY=1 once it listens")
        #expect(notify.until("WATCHDOG=1") != nil, "WATCHDOG=1 every half of WATCHDOG_USEC")
        daemon.kill(SIGHUP)
        let reloading = notify.until("RELOADING=1")
        #expect(reloading?.contains("MONOTONIC_USEC=") == true, "systemd's notify-reload wants the time it began")
        #expect(notify.until("READY=1") != nil, "READY=1 again once reloaded")
        #expect(try daemon.call("daemon.ping")["pong"] == true)
        daemon.kill(SIGTERM)
        #expect(notify.until("STOPPING=1") != nil)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func aWatchdogMeantForAnotherProcessIsNotPinged() throws {
        let notify = try NotifySocket()
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        defer { daemon.stop() }
        #expect(notify.until("READY=1") != nil)
        daemon.kill(SIGTERM)
        var messages: [String] = []
        while let message = notify.next() {
            messages.append(message)
            if message.contains("STOPPING=1") { break }
        }
        #expect(!messages.contains { $0.contains("WATCHDOG=1") })
    }

    @Test func theLaunchdPlistIsAPropertyListThatRunsClarityd() throws {
        let data = try Data(contentsOf: HostTools.repository.appendingPathComponent("config/com.clarity.clarityd.plist"))
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
        #expect(plist?["Label"] as? String == "com.clarity.clarityd")
        let program = plist?["ProgramArguments"] as? [String]
        #expect(program?.first?.hasSuffix("clarityd") == true)
    }

    @Test(.enabled(if: HostTools.systemdAnalyze != nil, "systemd-analyze is not installed here"))
    func theSystemdUnitVerifies() throws {
        let analyze = URL(fileURLWithPath: try #require(HostTools.systemdAnalyze))
        let unit = try String(contentsOf: HostTools.repository.appendingPathComponent("config/clarityd.service"), encoding: .utf8)
        let directory = URL(fileURLWithPath: "/tmp/unit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The unit names ~/.local/bin/clarityd; verify it against the binary this test built.
        let local = unit.replacingOccurrences(of: "%h/.local/bin/clarityd", with: BuildProducts.executable("clarityd").path)
        let file = directory.appendingPathComponent("clarityd.service")
        try local.write(to: file, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = analyze
        process.arguments = ["verify", "--man=no", file.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        let child = ChildProcess(process)
        try child.run()
        let status = child.wait(timeout: 60)
        let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(status == 0, "systemd-analyze verify: \(said)")
    }

    /// The shipped unit, run by a real systemd user manager (`exercise`), as a unit named for
    /// this run alone (two runs at once share the user's manager). Skipped where no user manager
    /// runs (``HostTools/userManagerRuns``).
    @Test(
        .enabled(
            if: HostTools.userManagerRuns,
            "no systemd user manager runs here (systemctl --user is-system-running answers neither running nor degraded)"))
    func theUnitUnderARealSystemdUserManager() throws {
        let systemctl = try #require(HostTools.systemctl)
        let run = HostTools.run
        let name = "clarityd-test-\(UUID().uuidString.prefix(8).lowercased())"
        let work = URL(fileURLWithPath: "/tmp/\(name)")
        let units = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/systemd/user")
        try installUnit(name, in: units, work: work, dropIn: nil)
        defer {
            _ = try? run(systemctl, ["--user", "stop", name])
            try? FileManager.default.removeItem(at: units.appendingPathComponent("\(name).service"))
            _ = try? run(systemctl, ["--user", "daemon-reload"])
            try? FileManager.default.removeItem(at: work)
        }
        #expect(try run(systemctl, ["--user", "daemon-reload"]).status == 0)
        try exercise(unit: name, work: work, watchdog: false) { try run(systemctl, ["--user"] + $0) }
    }

    /// The shipped unit under a real systemd booted for the test as PID 1 of its own PID and
    /// mount namespace (scripts/systemd-namespace.sh), where the machine's own init is not systemd
    /// but the test runs as root: `exercise`, the watchdog included. A drop-in shortens the
    /// watchdog (5 s) and the wait after its SIGABRT (3 s), and turns off the default
    /// dependencies on sysinit.target, which the namespace masks so that nothing outside it is
    /// set up or cleaned. The unit, its directory and the systemd's cgroup are named for this
    /// run alone: two runs at once each boot their own (booted in one cgroup, they shared their
    /// units' cgroups, and each one's `systemctl kill` reached the other's daemon). Skipped where
    /// `scripts/systemd-namespace.sh --check` says no namespace can boot (``HostTools/namespaceBoots``).
    @Test(
        .enabled(
            if: HostTools.namespaceBoots,
            "no systemd can boot in a namespace here (scripts/systemd-namespace.sh --check says why)"))
    func theUnitUnderASystemdInANamespace() throws {
        let run = HostTools.run
        let id = UUID().uuidString.prefix(8).lowercased()
        let name = "clarityd-test-\(id)"
        let cgroup = "clarity-namespace-\(id)"
        let work = URL(fileURLWithPath: "/tmp/sd-\(id)")
        let units = work.appendingPathComponent("units")
        try installUnit(
            name, in: units, work: work,
            dropIn: "[Unit]\nDefaultDependencies=no\n\n[Service]\nWatchdogSec=5\nTimeoutAbortSec=3\n")
        defer { try? FileManager.default.removeItem(at: work) }
        let boot = Process()
        boot.executableURL = HostTools.namespaceScript
        boot.arguments = [units.path, cgroup]
        let bootLog = work.appendingPathComponent("boot.log")
        _ = FileManager.default.createFile(atPath: bootLog.path, contents: nil)
        boot.standardOutput = try FileHandle(forWritingTo: bootLog)
        boot.standardError = try FileHandle(forWritingTo: bootLog)
        let namespace = ChildProcess(boot)
        try namespace.run()
        let script = namespace.processIdentifier
        var systemdPID: Int32?
        defer {
            // Its systemd first: `unshare` ends only once everything in the namespace has, and
            // then the cgroup is empty and can go.
            kill(systemdPID ?? script, SIGKILL)
            namespace.wait(timeout: 10)
            _ = try? run(HostTools.namespaceScript.path, ["--remove", cgroup])
        }
        let systemctl: ([String]) throws -> (status: Int32?, output: String) = { arguments in
            try run("/usr/bin/nsenter", ["-t", "\(systemdPID ?? 0)", "-m", "-p", "systemctl"] + arguments)
        }
        let deadline = Date().addingTimeInterval(30 * TestTimeouts.scale)
        var state = ""
        while Date() < deadline, state != "running", state != "degraded", namespace.isRunning {
            guard systemdPID != nil else {
                // The script becomes `unshare`, whose one child becomes the namespace's systemd.
                // Before that the script's own short-lived children come and go, a subshell's
                // named as the script ("systemd-namespa…"): taking one for systemd made every
                // `nsenter` after fail until the deadline (a loaded full run).
                systemdPID = Self.childOfUnshare(script)
                continue
            }
            state = try systemctl(["is-system-running", "--wait"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let booted = (try? String(contentsOf: bootLog, encoding: .utf8)) ?? ""
        try #require(state == "running" || state == "degraded", "systemd in the namespace did not come up (\(state)): \(booted)")
        try exercise(unit: name, work: work, watchdog: true, systemctl)
        let journal = try systemctl(["--no-pager", "-o", "cat", "status", name]).output
        let log = try run("/usr/bin/nsenter", ["-t", "\(systemdPID ?? 0)", "-m", "-p", "journalctl", "--no-pager", "-o", "cat", "-u", name]).output
        #expect(log.contains("Watchdog timeout"), "systemd's journal of the unit: \(log)\n\(journal)")
        #expect(log.contains("SIGHUP: config reloaded"), "clarityd's own lines reach the journal: \(log)")
    }

    /// The child of process `pid` once `pid` runs `unshare` (nil before, or when it has none).
    private static func childOfUnshare(_ pid: Int32) -> Int32? {
        guard (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "unshare\n" else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// Writes the shipped unit as `name`.service into `directory`, running the clarityd this
    /// test built on a socket and state directory in `work`, with `dropIn` as its
    /// `name.service.d/test.conf` when given.
    private func installUnit(_ name: String, in directory: URL, work: URL, dropIn: String?) throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let unit = try String(contentsOf: HostTools.repository.appendingPathComponent("config/clarityd.service"), encoding: .utf8)
            .replacingOccurrences(
                of: "%h/.local/bin/clarityd --socket %t/clarityd.sock",
                with: "\(BuildProducts.executable("clarityd").path) --socket \(work.path)/d.sock --state-dir \(work.path)/state")
        try unit.write(to: directory.appendingPathComponent("\(name).service"), atomically: true, encoding: .utf8)
        if let dropIn {
            let drops = directory.appendingPathComponent("\(name).service.d")
            try FileManager.default.createDirectory(at: drops, withIntermediateDirectories: true)
            try dropIn.write(to: drops.appendingPathComponent("test.conf"), atomically: true, encoding: .utf8)
        }
    }

    /// The unit `name` under a systemd reached with `systemctl`: `start` waits for READY=1, a
    /// client connected before `reload` (SIGHUP) is still answered after it; with `watchdog`, a
    /// daemon that stops turning (SIGSTOP) is killed and restarted by systemd and still has what
    /// was set; `stop` saves (a value set before it reads back from a daemon started on the same
    /// state) and exits 0.
    private func exercise(
        unit name: String, work: URL, watchdog: Bool, _ systemctl: ([String]) throws -> (status: Int32?, output: String)
    ) throws {
        let socket = work.appendingPathComponent("d.sock").path
        func show(_ property: String) throws -> String {
            try systemctl(["show", "-p", property, "--value", name]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let start = try systemctl(["start", name])
        #expect(start.status == 0, "systemctl start: \(start.output)")
        #expect(try systemctl(["is-active", name]).output.hasPrefix("active"))

        let client = try RawConnection(path: socket, receiveTimeout: 20 * TestTimeouts.scale)
        #expect(try client.call(id: 1, "store.set", ["key": "kept", "value": 7])?["result"] != nil)
        let reload = try systemctl(["reload", name])
        #expect(reload.status == 0, "systemctl reload: \(reload.output)")
        #expect(try client.call(id: 2, "daemon.ping")?["result"]?["pong"] == true, "the client connected before the reload is answered")

        if watchdog {
            let hung = try show("MainPID")
            let stopped = try systemctl(["kill", "--signal=SIGSTOP", name])
            #expect(stopped.status == 0, "systemctl kill --signal=SIGSTOP: \(stopped.output)")
            let deadline = Date().addingTimeInterval(60 * TestTimeouts.scale)
            var restarted = false
            while Date() < deadline, !restarted {
                restarted = try show("NRestarts") == "1" && show("ActiveState") == "active" && show("MainPID") != hung
            }
            let restarts = try show("NRestarts")
            #expect(restarted, "systemd restarts a daemon whose watchdog pings stopped (NRestarts \(restarts))")
            let after = try RawConnection(path: socket, receiveTimeout: 20 * TestTimeouts.scale)
            #expect(try after.call(id: 3, "store.get", ["key": "kept"])?["result"]?["value"] == 7, "the restarted daemon has what was set")
        }

        let stop = try systemctl(["stop", name])
        #expect(stop.status == 0, "systemctl stop: \(stop.output)")
        #expect(try show("ExecMainStatus") == "0", "clarityd's exit status under stop")
        let again = try DaemonProcess(arguments: ["--state-dir", work.appendingPathComponent("state").path])
        defer { again.stop() }
        #expect(try again.call("store.get", ["key": "kept"])["value"] == 7, "what was set before stop is saved")
    }
}

