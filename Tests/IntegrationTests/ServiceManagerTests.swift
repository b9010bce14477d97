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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        let child = ChildProcess(process)
        try child.run()
        let status = child.wait(timeout: 60)
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// The shipped unit, run by a real systemd user manager: `start` waits for READY=1, a client
    /// connected before `reload` (SIGHUP) is still answered after it, and `stop` saves (a value
    /// set before it reads back from a daemon started on the same state) and exits 0. Where no user
    /// manager runs (`systemctl --user is-system-running` answers neither `running` nor
    /// `degraded`, as in most containers), it says so and checks nothing.
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
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let name = "clarityd-test-\(UUID().uuidString.prefix(8).lowercased())"
        let work = URL(fileURLWithPath: "/tmp/\(name)")
        let socket = work.appendingPathComponent("d.sock").path
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let units = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/systemd/user")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        let unitFile = units.appendingPathComponent("\(name).service")
        let unit = try String(contentsOf: root.appendingPathComponent("config/clarityd.service"), encoding: .utf8)
            .replacingOccurrences(
                of: "%h/.local/bin/clarityd --socket %t/clarityd.sock",
                with: "\(BuildProducts.executable("clarityd").path) --socket \(socket) --state-dir \(work.path)/state")
        try unit.write(to: unitFile, atomically: true, encoding: .utf8)
        defer {
            _ = try? run(systemctl, ["--user", "stop", name])
            try? FileManager.default.removeItem(at: unitFile)
            _ = try? run(systemctl, ["--user", "daemon-reload"])
            try? FileManager.default.removeItem(at: work)
        }
        #expect(try run(systemctl, ["--user", "daemon-reload"]).status == 0)
        let start = try run(systemctl, ["--user", "start", name])
        #expect(start.status == 0, "systemctl --user start: \(start.output)")
        #expect(try run(systemctl, ["--user", "is-active", name]).output.hasPrefix("active"))

        let client = try RawConnection(path: socket, receiveTimeout: 20)
        #expect(try client.call(id: 1, "store.set", ["key": "kept", "value": 7])?["result"] != nil)
        let reload = try run(systemctl, ["--user", "reload", name])
        #expect(reload.status == 0, "systemctl --user reload: \(reload.output)")
        #expect(try client.call(id: 2, "daemon.ping")?["result"]?["pong"] == true, "the client connected before the reload is answered")

        let stop = try run(systemctl, ["--user", "stop", name])
        #expect(stop.status == 0, "systemctl --user stop: \(stop.output)")
        let status = try run(systemctl, ["--user", "show", "-p", "ExecMainStatus", "--value", name])
        #expect(status.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "clarityd's exit status under stop")
        let again = try DaemonProcess(arguments: ["--state-dir", work.appendingPathComponent("state").path])
        defer { again.stop() }
        #expect(try again.call("store.get", ["key": "kept"])["value"] == 7, "what was set before stop is saved")
    }
}

