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
/// `systemd-analyze verify` reads it, and the launchd plist as a property list. A real
/// `systemctl --user` run needs a user manager, which a container seldom has: skipped then,
/// saying so.
@Suite struct ServiceManagerTests {
    /// systemd's end of `$NOTIFY_SOCKET`: a datagram socket the daemon's messages arrive on.
    final class NotifySocket {
        let path: String
        private let descriptor: Int32

        init() throws {
            path = "/tmp/notify-\(UUID().uuidString.prefix(8)).sock"
            descriptor = try boundUnixSocket(path: path, datagram: true)
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        /// The next message; nil after 20 s without one.
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
        }

        /// Messages until one contains `text` (which is returned); nil when none comes.
        func until(_ text: String) -> String? {
            while let message = next() {
                if message.contains(text) { return message }
            }
            return nil
        }
    }

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
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("config/com.clarity.clarityd.plist"))
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
        #expect(plist?["Label"] as? String == "com.clarity.clarityd")
        let program = plist?["ProgramArguments"] as? [String]
        #expect(program?.first?.hasSuffix("clarityd") == true)
    }

    @Test func theSystemdUnitVerifies() throws {
        let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        guard FileManager.default.isExecutableFile(atPath: analyze.path) else {
            print("ServiceManagerTests: systemd-analyze is not installed here; the unit file was not verified")
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let unit = try String(contentsOf: root.appendingPathComponent("config/clarityd.service"), encoding: .utf8)
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

    /// Runs `tool` with `arguments` to completion: its exit status (nil after 60 s) and what it
    /// printed, standard output and error together.
    private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32?, output: String) {
        let output = URL(fileURLWithPath: "/tmp/tool-\(UUID().uuidString.prefix(8))")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        // Closed here: `Process` keeps the handles it was given, and the watchdog's wait runs this
        // hundreds of times (it once held 1 470 descriptors of deleted files open, enough to crash
        // Foundation's `Process.run()`: docs/reliability.md, "Known").
        let printed = try FileHandle(forWritingTo: output)
        defer { try? printed.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = printed
        process.standardError = printed
        let child = ChildProcess(process)
        try child.run()
        let status = child.wait(timeout: 60)
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// The shipped unit, run by a real systemd user manager (`exercise`). Where no user manager
    /// runs (`systemctl --user is-system-running` answers neither `running` nor `degraded`, as in
    /// most containers), it says so and checks nothing.
    @Test func theUnitUnderARealSystemdUserManager() throws {
        let systemctl = ["/usr/bin/systemctl", "/bin/systemctl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let systemctl else {
            print("ServiceManagerTests: systemctl is not installed here; the real service run was skipped")
            return
        }
        let state = try run(systemctl, ["--user", "is-system-running"])
        let answer = state.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard answer == "running" || answer == "degraded" else {
            print("ServiceManagerTests: no systemd user manager here (systemctl --user is-system-running: \(answer)); the real service run was skipped")
            return
        }
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
    /// set up or cleaned. Skipped, saying why, without root, unshare, nsenter or a systemd binary.
    @Test func theUnitUnderASystemdInANamespace() throws {
        let tools = ["/usr/bin/unshare", "/usr/bin/nsenter"]
        let systemd = ["/lib/systemd/systemd", "/usr/lib/systemd/systemd"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard getuid() == 0, systemd != nil, tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("ServiceManagerTests: a systemd in a namespace needs root, unshare, nsenter and a systemd binary; the run was skipped")
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let name = "clarityd-test"
        let work = URL(fileURLWithPath: "/tmp/sd-\(UUID().uuidString.prefix(8).lowercased())")
        let units = work.appendingPathComponent("units")
        try installUnit(
            name, in: units, work: work,
            dropIn: "[Unit]\nDefaultDependencies=no\n\n[Service]\nWatchdogSec=5\nTimeoutAbortSec=3\n")
        defer { try? FileManager.default.removeItem(at: work) }
        let boot = Process()
        boot.executableURL = root.appendingPathComponent("scripts/systemd-namespace.sh")
        boot.arguments = [units.path]
        let bootLog = work.appendingPathComponent("boot.log")
        _ = FileManager.default.createFile(atPath: bootLog.path, contents: nil)
        boot.standardOutput = try FileHandle(forWritingTo: bootLog)
        boot.standardError = try FileHandle(forWritingTo: bootLog)
        let namespace = ChildProcess(boot)
        try namespace.run()
        // The script becomes `unshare`, whose one child becomes the namespace's systemd.
        let children = "/proc/\(namespace.processIdentifier)/task/\(namespace.processIdentifier)/children"
        var systemdPID: Int32?
        defer {
            if let systemdPID { kill(systemdPID, SIGKILL) }
            namespace.wait(timeout: 10)
        }
        let systemctl: ([String]) throws -> (status: Int32?, output: String) = { arguments in
            try self.run("/usr/bin/nsenter", ["-t", "\(systemdPID ?? 0)", "-m", "-p", "systemctl"] + arguments)
        }
        let deadline = Date().addingTimeInterval(30 * TestTimeouts.scale)
        var state = ""
        while Date() < deadline, state != "running", state != "degraded", namespace.isRunning {
            if systemdPID == nil {
                // The script's own short-lived children (`$(id -u)`) come and go before it becomes
                // `unshare`, whose child becomes systemd: only a child that runs systemd is it.
                // Taking the first child seen once named a subshell that was gone a moment later,
                // and every `nsenter` after failed until the deadline (a loaded full run).
                let pids = ((try? String(contentsOfFile: children, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
                systemdPID = pids.first { pid in
                    (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("systemd") == true
                }
                continue
            }
            state = try systemctl(["is-system-running"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let booted = (try? String(contentsOf: bootLog, encoding: .utf8)) ?? ""
        try #require(state == "running" || state == "degraded", "systemd in the namespace did not come up (\(state)): \(booted)")
        try exercise(unit: name, work: work, watchdog: true, systemctl)
        let journal = try systemctl(["--no-pager", "-o", "cat", "status", name]).output
        let log = try run("/usr/bin/nsenter", ["-t", "\(systemdPID ?? 0)", "-m", "-p", "journalctl", "--no-pager", "-o", "cat", "-u", name]).output
        #expect(log.contains("Watchdog timeout"), "systemd's journal of the unit: \(log)\n\(journal)")
        #expect(log.contains("SIGHUP: config reloaded"), "clarityd's own lines reach the journal: \(log)")
    }

    /// Writes the shipped unit as `name`.service into `directory`, running the clarityd this
    /// test built on a socket and state directory in `work`, with `dropIn` as its
    /// `name.service.d/test.conf` when given.
    private func installUnit(_ name: String, in directory: URL, work: URL, dropIn: String?) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let unit = try String(contentsOf: root.appendingPathComponent("config/clarityd.service"), encoding: .utf8)
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

