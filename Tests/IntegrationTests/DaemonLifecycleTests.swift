import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Socket ownership, single instance, signals, and clients that misbehave.
@Suite struct DaemonLifecycleTests {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return info.st_mode & 0o777
    }

    @Test func socketIsPrivateAndASecondDaemonIsRefused() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        #expect(mode(daemon.socketPath) == 0o600)
        #expect(mode(daemon.directory.path) == 0o700)

        let second = BuildProducts.run(
            "clarityd", ["--socket", daemon.socketPath, "--state-dir", daemon.stateDirectory + "2"],
            currentDirectory: daemon.directory, timeout: 10)
        #expect(second.status == 1)
        #expect(second.stderr.contains("another clarityd (pid \(daemon.processIdentifier)) is running on \(daemon.socketPath)"))
        #expect(try daemon.call("daemon.ping")["pong"] == true)
    }

    /// Two daemons on one state directory would each save their own copy of the devices over
    /// the other's, losing acknowledged writes: the second is refused, whatever its socket.
    @Test func aSecondDaemonOnTheSameStateDirectoryIsRefusedNamingTheFirst() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("store.set", ["key": "k", "value": 1])

        let second = BuildProducts.run(
            "clarityd", ["--socket", daemon.directory.path + "/b.sock", "--state-dir", daemon.stateDirectory],
            currentDirectory: daemon.directory, timeout: 10)
        #expect(second.status == 1)
        #expect(
            second.stderr.contains(
                "another clarityd (pid \(daemon.processIdentifier)) is using the state directory \(daemon.stateDirectory)"),
            "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: daemon.directory.path + "/b.sock"))

        _ = try daemon.call("store.set", ["key": "k", "value": 2])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        try daemon.start()
        #expect(try daemon.call("store.get", ["key": "k"])["value"] == 2)
    }

    /// A field clarityd.json doesn't take stops the daemon at start, naming it (exit 2).
    @Test func anUnknownConfigFieldRefusesToStart() throws {
        let (run, config) = try startRefused(config: #"{"logLevel":"info","baselinebytes":1024}"#)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(#"config file \#(config): field "baselinebytes": unknown; did you mean baselineBytes?"#),
            "\(run.stderr)")
    }

    /// A number of loops the daemon cannot run refuses the config at start, naming the field.
    @Test(arguments: [(0, "must be a positive number, got 0"), (65, "must be at most 64, got 65")])
    func anEventLoopCountOutOfRangeRefusesToStart(loops: Int, reason: String) throws {
        let (run, _) = try startRefused(config: #"{"eventLoops":\#(loops)}"#)
        #expect(run.status == 2)
        #expect(run.stderr.contains(#"field "eventLoops": \#(reason)"#), "\(run.stderr)")
    }

    /// Devices' defaults no `device.create` without `app` could take are a bad config, exit 2
    /// (the unit does not restart on 2), naming the field (issue 38: `{"platform": "android"}`
    /// with Clarity, which has only an iOS client, exited 1, a restart loop under systemd).
    @Test(arguments: [
        (#"{"platform":"android"}"#, #"field "platform": "android" for every new device, but the default app clarity has no android client (android: thephone)"#),
        (#"{"defaultApp":"nope"}"#, #"field "defaultApp": nope is not an app this daemon runs"#),
        (#"{"variant":"nope"}"#, #"field "variant": unknown setting"#),
    ])
    func devicesDefaultsTheDefaultAppCannotTakeRefuseToStart(config: String, message: String) throws {
        let (run, _) = try startRefused(config: config)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    /// Android as every device's default is a config for a daemon whose default app has an
    /// Android client: `device.create` without `app` makes one.
    @Test func androidIsTheDefaultPlatformWhenTheDefaultAppHasAnAndroidClient() throws {
        let daemon = try DaemonProcess(config: ["defaultApp": "thephone", "platform": "android"])
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "phone"])
        #expect(try daemon.call("device.state", ["device": "phone"])["platform"] == "android")
    }

    /// A reload checks the file as start does, and against the running default app: a file that
    /// start would refuse is refused, logged naming the field, and the running config kept — a
    /// `device.create` without `app` still works (issue 38: SIGHUP took `{"platform":
    /// "android"}`, and every such create failed after it).
    @Test func aReloadRefusesWhatStartWouldRefuseAndKeepsTheRunningConfig() throws {
        let daemon = try DaemonProcess(config: ["raceDetector": true])
        defer { daemon.stop() }
        let configFile = daemon.directory.appendingPathComponent("clarityd.json")
        try JSONWire.encode(["platform": "android", "raceDetector": false] as JSONValue).write(to: configFile)
        daemon.kill(SIGHUP)
        #expect(daemon.eventually { daemon.log.contains("was not reloaded") })
        #expect(daemon.log.contains(#"field "platform""#), "\(daemon.log)")
        _ = try daemon.call("device.create", ["device": "after"])
        #expect(try daemon.call("device.config", ["device": "after"])["raceDetector"] == true, "the running defaults kept")

        // A file that changes defaultApp (taking effect at the next start) is checked against the
        // running default app too: Android defaults do not suit the running Clarity.
        try JSONWire.encode(["defaultApp": "thephone", "platform": "android"] as JSONValue).write(to: configFile)
        daemon.kill(SIGHUP)
        #expect(daemon.eventually { daemon.log.components(separatedBy: "was not reloaded").count == 3 })
        _ = try daemon.call("device.create", ["device": "later"])
        #expect(try daemon.call("device.state", ["device": "later"])["appName"] == "clarity")
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    /// clarityd takes its socket from `$CLARITYD_SOCKET` as clarityctl does; `--socket` wins.
    @Test func bothProgramsTakeTheSocketFromTheEnvironment() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.path + "/env.sock"
        let environment = ProcessInfo.processInfo.environment.merging(["CLARITYD_SOCKET": socket]) { _, new in new }
        let notify = try NotifySocket()
        let process = Process()
        process.executableURL = BuildProducts.executable("clarityd")
        process.arguments = ["--state-dir", directory.path + "/state"]
        process.environment = environment.merging(["NOTIFY_SOCKET": notify.path]) { _, new in new }
        process.currentDirectoryURL = directory
        process.standardError = FileHandle.nullDevice
        let daemon = ChildProcess(process)
        try daemon.run()
        defer {
            process.terminate()
            daemon.wait(timeout: 10)
        }
        try #require(notify.until("READY=1") != nil, "clarityd did not say it listens")

        let ping = BuildProducts.run("clarityctl", ["ping"], environment: environment, timeout: 10)
        #expect(ping.status == 0 && ping.stdout.contains("pong:    true"), "\(ping)")
        let elsewhere = BuildProducts.run("clarityctl", ["--socket", directory.path + "/none.sock", "ping"], environment: environment, timeout: 10)
        #expect(elsewhere.status == 3, "--socket wins over the environment")
        #expect(BuildProducts.run("clarityctl", ["shutdown"], environment: environment, timeout: 10).status == 0)
    }

    /// Directories others may write to let another user replace the socket or plant a link
    /// where a file will be written: ours are set back to 0700, a shared one (`/tmp`) refused,
    /// and no file is written through a planted link.
    @Test func directoriesOthersMayWriteAreMadePrivateOrRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = directory.appendingPathComponent("run").path
        let state = directory.appendingPathComponent("state").path
        for path in [run, state, state + "/devices"] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            chmod(path, 0o777)
        }
        let target = directory.appendingPathComponent("precious").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: state + "/devices/default.1.snapshot.tmp", withDestinationPath: target)
        let config = directory.appendingPathComponent("clarityd.json")
        try Data(#"{"compactJournalAfter": 2}"#.utf8).write(to: config)

        let notify = try NotifySocket()
        let process = Process()
        process.executableURL = BuildProducts.executable("clarityd")
        process.arguments = ["--socket", run + "/d.sock", "--state-dir", state, "--config", config.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path]) { _, new in new }
        process.currentDirectoryURL = directory
        let logURL = directory.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: logURL)
        let daemon = ChildProcess(process)
        try daemon.run()
        defer {
            if daemon.isRunning { process.terminate() }
            daemon.wait(timeout: 10)
        }
        try #require(notify.until("READY=1") != nil, "clarityd did not say it listens")
        for value in 1...3 {
            let set = BuildProducts.run("clarityctl", ["--socket", run + "/d.sock", "store", "set", "k", "\(value)"], timeout: 10)
            #expect(set.status == 0, "\(set.stderr)")
        }
        #expect(BuildProducts.run("clarityctl", ["--socket", run + "/d.sock", "shutdown"], timeout: 10).status == 0)
        #expect(daemon.wait(timeout: 10) == 0)
        let output = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""

        for path in [run, state, state + "/devices"] {
            #expect(mode(path) == 0o700, "\(path)")
        }
        #expect(output.contains("socket directory \(run) was writable by other users; set to 0700"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me", "nothing written through the link")
        #expect(FileManager.default.fileExists(atPath: state + "/devices/default.1.snapshot"), "the compaction wrote its own file")

        let shared = BuildProducts.run("clarityd", ["--socket", "/tmp/clarityd-test-\(getpid()).sock", "--state-dir", state], timeout: 10)
        #expect(shared.status == 1)
        #expect(shared.stderr.contains("/tmp"), "\(shared.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/clarityd-test-\(getpid()).sock"))
    }

    /// Runs clarityd with `config` as its clarityd.json until it exits (at most 10 s); the
    /// config file's path comes back with the run.
    private func startRefused(config text: String) throws -> (run: (status: Int32, stdout: String, stderr: String), config: String) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("clarityd.json")
        try Data(text.utf8).write(to: config)
        let run = BuildProducts.run(
            "clarityd", ["--config", config.path, "--socket", directory.path + "/s.sock", "--state-dir", directory.path + "/state"],
            currentDirectory: directory, timeout: 10)
        return (run, config.path)
    }

    private func temporaryDirectory() throws -> URL {
        var template = Array("/tmp/cdt-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        return URL(fileURLWithPath: String(cString: created))
    }

    @Test func sigtermSavesAndExitsZeroAndAStaleSocketIsReplaced() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("event", ["type": "lock"])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))

        try daemon.start()
        #expect(try daemon.call("device.state")["locked"] == true, "saved on SIGTERM")
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath), "a killed daemon leaves its socket")
        try daemon.start()
        #expect(try daemon.call("daemon.ping")["pong"] == true)
        #expect(daemon.log.contains("stale"))
    }

    /// SIGHUP reloads clarityd.json while a client stays connected: the log level and the
    /// defaults of new devices change, existing devices keep theirs; a file that does not load
    /// changes nothing; SIGTERM then still saves and exits 0 (issue 22: SIGHUP used to end the
    /// daemon and leave its socket refusing connections).
    @Test func sighupReloadsTheConfigWithoutDroppingAClient() throws {
        let daemon = try DaemonProcess(config: ["logLevel": "info", "raceDetector": false])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.call(id: 1, "device.create", ["device": "before"])
        let configFile = daemon.directory.appendingPathComponent("clarityd.json")

        try JSONWire.encode(["logLevel": "debug", "raceDetector": true] as JSONValue).write(to: configFile)
        daemon.kill(SIGHUP)
        #expect(daemon.eventually { daemon.log.contains("SIGHUP: config reloaded") })
        #expect(try client.call(id: 2, "daemon.ping")?["result"]?["pong"] == true, "the client was not dropped")
        _ = try client.call(id: 3, "device.create", ["device": "after"])
        #expect(try client.call(id: 4, "device.config", ["device": "after"])?["result"]?["raceDetector"] == true, "new devices start from the new file")
        #expect(try client.call(id: 5, "device.config", ["device": "before"])?["result"]?["raceDetector"] == false, "existing devices keep theirs")

        try Data("{\"logLevel\": \"loud\"}".utf8).write(to: configFile)
        daemon.kill(SIGHUP)
        #expect(daemon.eventually { daemon.log.contains("was not reloaded") })
        #expect(daemon.log.contains("field \"logLevel\""), "the log names the bad field")
        _ = try client.call(id: 6, "device.create", ["device": "later"])
        #expect(try client.call(id: 7, "device.config", ["device": "later"])?["result"]?["raceDetector"] == true, "a bad file changes nothing")

        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func aHalfWrittenClientDoesNotBlockOthers() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let slow = try daemon.connect()
        try slow.send(#"{"jsonrpc":"2.0","id":1,"method":"daemon."#)
        let others = try (0..<5).map { _ in try daemon.connect() }
        for (index, connection) in others.enumerated() {
            try connection.send(#"{"jsonrpc":"2.0","id":\#(index),"method":"daemon.ping"}"# + "\n")
        }
        for connection in others {
            #expect(try connection.readLine()?.contains(#""pong":true"#) == true)
        }
        try slow.send("ping\"}\n")
        #expect(try slow.readLine()?.contains(#""pong":true"#) == true)
        let status = try daemon.call("daemon.status")
        #expect(status["connections"]?.intValue ?? 0 >= 7)
    }

    @Test func shutdownMethodRepliesThenExitsZero() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        #expect(try daemon.call("daemon.shutdown")["ok"] == true)
        #expect(daemon.waitForExit() == 0)
    }

    /// `clarityctl shutdown` (issue 39): the daemon, which ran the shutdown on the event loop
    /// that had just delivered `ok: true`, waited 2 s for that same loop to say it was quiet and
    /// logged `WARNING some answers had not reached their clients after 2 s` every time.
    @Test func clarityctlShutdownStopsWithoutWaitingForAnswersAlreadySent() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let shutdown = daemon.runCtl(["shutdown"])
        #expect(shutdown.status == 0 && shutdown.stdout == "ok: true\n", "\(shutdown.stderr)")
        #expect(daemon.waitForExit() == 0)
        #expect(daemon.log.contains(" INFO stopped\n"), "\(daemon.log)")
        #expect(!daemon.log.contains("WARNING"), "\(daemon.log)")
    }

    /// An exploration running when `daemon.shutdown` comes is answered with what it found
    /// (`stoppedBy: "shutdown"`) before the daemon exits, as docs/scenarios.md promises: its
    /// connection shares the one event loop with the one that asked, which the shutdown blocked,
    /// so the report was never sent (the client saw the connection close).
    @Test func anExplorationRunningAtShutdownGetsItsReportBeforeTheDaemonExits() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let explorer = try daemon.connect(receiveTimeout: 60)
        try explorer.request(
            id: 1, "scenario.explore",
            ["scenario": try ScenarioTests.scenario(ScenarioTests.fixed), "schedules": 10_000_000, "jobs": 1])
        #expect(try daemon.eventually { try daemon.scenarioLoad().running == 1 })
        #expect(try daemon.call("daemon.shutdown")["ok"] == true)
        let report = try explorer.answer()?["result"]
        #expect(report?["stoppedBy"] == "shutdown", "\(daemon.log)")
        #expect((report?["schedules"]?.intValue ?? 0) == report?["covered"]?.intValue, "one job: every schedule run is covered")
        #expect(daemon.waitForExit() == 0)
        #expect(!daemon.log.contains("WARNING"), "\(daemon.log)")
    }

    /// The WARNING stays for what it is for: a client that does not read its answers. The
    /// shutdown waits for them (at most 2 s), says so, and exits 0.
    @Test func aShutdownStillWarnsOfAnswersAClientNeverRead() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let deaf = try daemon.connect()
        try deaf.send((1...3000).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"daemon.status"}"# + "\n" }.joined())
        #expect(try daemon.eventually { (try daemon.call("daemon.status")["answers"]?["unsent"]?.intValue ?? 0) > 0 })
        #expect(try daemon.call("daemon.shutdown")["ok"] == true)
        #expect(daemon.waitForExit() == 0)
        #expect(daemon.log.contains(" WARNING some answers had not reached their clients after 2 s\n"), "\(daemon.log)")
        #expect(daemon.log.contains(" INFO stopped\n"), "\(daemon.log)")
    }
}

