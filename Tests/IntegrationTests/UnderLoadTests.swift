import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A daemon that runs a team's explorations stays responsive and bounded while it does
/// (docs/scenarios.md, "Sharing the daemon"): durable writes are answered meanwhile, work stops
/// when nobody waits for it, scenario requests queue within bounds, and a stop ends explorations
/// first and answers their callers.
@Suite struct UnderLoadTests {
    static let fixed = try! ScenarioTests.scenario(ScenarioTests.fixed)

    /// An exploration that would run for hours: no time limit, ten million schedules.
    static func endless(jobs: Int? = nil) -> JSONValue {
        var params: [String: JSONValue] = ["scenario": fixed, "strategy": "random", "schedules": 10_000_000]
        if let jobs { params["jobs"] = .int(jobs) }
        return .object(params)
    }

    /// Nine years of Instagram open under Clarity's friction monitoring: a scenario.run of
    /// several seconds, with a timer every few minutes of virtual time.
    static let longRun: JSONValue = [
        "scenario": [
            "steps": .array(
                [
                    ["intent": ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]]],
                    ["event": ["type": "app.open", "app": "com.burbn.instagram"]],
                ] + Array(repeating: ["advance": 31_622_400], count: 9))
        ]
    ]

    /// With `durability: fsync` (the default then), `store.set` was answered once in 5 s while an
    /// exploration kept the cores (the journal's sync waited for Dispatch's pool, which the
    /// exploration held); with `jobs` 256, after 145 s. Now the exploration runs on the
    /// daemon's scenario threads, at a low priority, and every write is answered while it runs.
    @Test func durableWritesAreAnsweredWhileAnExplorationWithManyJobsRuns() throws {
        let daemon = try DaemonProcess(config: ["durability": "fsync"])
        defer { daemon.stop() }
        let exploring = try daemon.connect(receiveTimeout: 300)
        try exploring.request(id: 1, "scenario.explore", Self.endless(jobs: 256))
        #expect(try daemon.eventually { try daemon.scenarioLoad().running == 1 })
        let writer = try daemon.connect(receiveTimeout: 10)
        for value in 0..<40 {
            let answer = try writer.call(id: value, "store.set", ["key": "k", "value": .int(value)])
            #expect(answer?["result"]?["ok"] == true, "\(String(describing: answer))")
        }
        #expect(try writer.call(id: 99, "store.get", ["key": "k"])?["result"]?["value"] == 39)
        #expect(try daemon.scenarioLoad().running == 1, "the writes were answered while the exploration ran")
        let status = try daemon.call("daemon.status")
        #expect(status["scenarios"]?["threads"] == .int(ProcessInfo.processInfo.activeProcessorCount))
    }

    /// An exploration whose caller was killed went on with both cores unless it had asked for
    /// `progress`: the daemon saw the closed connection only when it wrote to it. Now it watches
    /// for the hang-up while the request runs.
    @Test func anExplorationStopsWhenItsCallerLeavesWithoutAskingForProgress() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        do {
            let leaving = try daemon.connect()
            try leaving.request(id: 1, "scenario.explore", Self.endless())
            #expect(try daemon.eventually { try daemon.scenarioLoad().running == 1 })
        }  // closed here
        #expect(try daemon.eventually { try daemon.scenarioLoad().running == 0 }, "\(daemon.log)")
        #expect(daemon.log.contains("went away: exploration stopped after"))
    }

    /// A client that half-closes after its request (writes, then `shutdown(SHUT_WR)`) still
    /// wants the answer: only a full close counts as leaving.
    @Test func aHalfClosedCallerStillGetsItsAnswer() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let caller = try daemon.connect(receiveTimeout: 120)
        try caller.request(
            id: 1, "scenario.explore", ["scenario": Self.fixed, "strategy": "pct", "schedules": 50, "jobs": 1])
        caller.shutdownWrite()
        let answer = try #require(try caller.answer())
        #expect(answer["result"]?["schedules"] == 50, "\(answer)")
        #expect(answer["result"]?["stoppedBy"] == nil)
    }

    /// `scenario.run` was never cancelled: its caller gone, it ran to the end. Now it stops
    /// within a timer instant of virtual time.
    @Test func aScenarioRunStopsWhenItsCallerLeaves() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        do {
            let leaving = try daemon.connect()
            try leaving.request(id: 1, "scenario.run", Self.longRun)
            #expect(try daemon.eventually { try daemon.scenarioLoad().running == 1 })
        }
        #expect(try daemon.eventually { try daemon.scenarioLoad().running == 0 }, "\(daemon.log)")
    }

    /// Scenario requests queued without limit: 150 callers of a large `scenario.run` drove the
    /// daemon to 2.5 GB. Now `scenarioThreads + scenarioQueue` are admitted and the next is
    /// refused at once (-32007); a caller that leaves while queued is taken out of the queue.
    @Test func scenarioRequestsBeyondTheQueueAreRefusedAndALeavingOneIsWithdrawn() throws {
        let daemon = try DaemonProcess(config: ["scenarioThreads": 1, "scenarioQueue": 1])
        defer { daemon.stop() }
        let running = try daemon.connect(receiveTimeout: 300)
        try running.request(id: 1, "scenario.explore", Self.endless())
        #expect(try daemon.eventually { try daemon.scenarioLoad().running == 1 })
        do {
            let queued = try daemon.connect()
            try queued.request(id: 2, "scenario.run", Self.longRun)
            #expect(try daemon.eventually { try daemon.scenarioLoad().queued == 1 })
            let refused = try daemon.connect()
            let answer = try #require(try refused.call(id: 3, "scenario.run", Self.longRun))
            #expect(answer["error"]?["code"] == .int(RPCError.Code.busy), "\(answer)")
            #expect(answer["error"]?["data"]?["limit"] == 2)
        }  // the queued caller leaves
        #expect(try daemon.eventually { try daemon.scenarioLoad().queued == 0 })
        #expect(try daemon.scenarioLoad().running == 1)
        let status = try daemon.call("daemon.status")["scenarios"]
        #expect(status?["threads"] == 1)
        #expect(status?["queueLimit"] == 1)
    }

    /// One run's cost is bounded before anything runs: 500 steps × 2 000 invariants took 60
    /// CPU-seconds a schedule, and a `parallel` step's by its branches × their steps. A step past its own bound is named before the sum of them:
    /// `advance: 1e19` once crashed the daemon, converting the total for the message.
    @Test func aScenarioTooCostlyToRunIsRefusedNamingWhy() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let invariant: JSONValue = ["store": ["key": "frictionLevel", "in": [0, 1, 2, 3, 4, 5]]]
        let cases: [(JSONValue, String, String)] = [
            (
                [
                    "steps": .array(Array(repeating: ["advance": 1], count: 2500)),
                    "invariants": .array(Array(repeating: invariant, count: 50)),
                ],
                "invariants", "checks a run"
            ),
            (["steps": [], "invariants": .array(Array(repeating: invariant, count: 101))], "invariants", "at most 100"),
            (["steps": .array(Array(repeating: ["event": ["type": "lock"]], count: 10_001))], "steps", "at most 10000"),
            (["steps": .array(Array(repeating: ["advance": 31_622_400], count: 10))], "steps", "ten years"),
            (["steps": [["advance": 1e19]]], "steps[0].advance", "at most a year"),
            (["steps": [["advance": 1e308], ["advance": 1e308]]], "steps[0].advance", "at most a year"),
            (
                ["steps": [["parallel": [[["waitUntil": ["shielded": ["app": "x", "is": true], "within": 1e300]]]]]]],
                "steps[0].parallel[0][0].waitUntil.within", "at most a year"
            ),
            // 9 998 one-`advance` branches, within the 10 000 steps: every decision weighed every
            // branch, and the run went on for over 5 minutes, to 7.8 GB (issue 38).
            (
                ["steps": [["event": ["type": "lock"]], ["parallel": .array(Array(repeating: [["advance": 1]], count: 9_998))]]],
                "steps[1].parallel", "9998 branches × 9998 steps in them = 99960004; at most 100000"
            ),
        ]
        for (scenario, field, reason) in cases {
            do {
                _ = try daemon.call("scenario.run", ["scenario": scenario])
                Issue.record("\(field) was not refused")
            } catch let error as RPCError {
                #expect(error.code == RPCError.Code.scenarioInvalid)
                #expect(error.data?["field"] == .string(field), "\(error)")
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
        #expect(try daemon.call("daemon.ping")["pong"] == true)
    }

    /// `clarityctl explore --standalone` killed with `kill -9` left its clarityd running at
    /// 200 % CPU and its /tmp/clarityctl-XXXX behind. Now the daemon holds a lifeline to it.
    @Test func aPrivateDaemonStopsWhenItsClarityctlIsKilled() throws {
        let before = Set(Self.privateDirectories())
        let process = Process()
        process.executableURL = BuildProducts.executable("clarityctl")
        process.arguments = ["explore", ScenarioTests.path(ScenarioTests.fixed), "--schedules", "10000000", "--standalone"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let clarityctl = ChildProcess(process)
        try clarityctl.run()
        defer { kill(clarityctl.processIdentifier, SIGKILL) }
        // Until the private daemon answers on its socket (clarityctl, alive, paces the looks).
        // Its directory is the new one whose daemon is this clarityctl's child: another test run
        // on the machine makes directories of the same name meanwhile.
        var directory: String?
        var daemonPID: pid_t = 0
        var watcher: RawConnection?
        for _ in 0..<3000 where watcher == nil {
            for candidate in Set(Self.privateDirectories()).subtracting(before) where watcher == nil {
                if let text = try? String(contentsOfFile: candidate + "/clarityd.sock.lock", encoding: .utf8),
                    let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                    Self.parent(of: pid) == clarityctl.processIdentifier,
                    let connection = try? RawConnection(path: candidate + "/clarityd.sock", receiveTimeout: 30)
                {
                    directory = candidate
                    daemonPID = pid
                    watcher = connection
                }
            }
            if watcher == nil, clarityctl.wait(timeout: 0.01) != nil { break }
        }
        let directoryPath = try #require(directory, "the private daemon never started")
        let connection = try #require(watcher, "the private daemon never answered")
        // The daemon's pid lock is dropped by the kernel only when the process exits: taking it
        // is how the test waits for the exit (the socket closes a moment before).
        let lock = open(directoryPath + "/clarityd.sock.lock", O_RDONLY | O_CLOEXEC)
        try #require(lock >= 0)
        defer { close(lock) }
        kill(clarityctl.processIdentifier, SIGKILL)
        _ = clarityctl.wait(timeout: 30)
        #expect(connection.waitForClose(), "the private daemon did not stop")
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread { if flock(lock, LOCK_EX) == 0 { exited.signal() } }
        #expect(
            exited.wait(timeout: .now() + 30) == .success,
            "clarityd \(daemonPID) outlived its clarityctl: \(Self.processState(daemonPID))")
        #expect(!FileManager.default.fileExists(atPath: directoryPath))
    }

    private static func processState(_ pid: pid_t) -> String {
        (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?.split(separator: "\n").prefix(8)
            .joined(separator: "; ") ?? "?"
    }

    /// The parent of process `pid`; nil when it is gone.
    private static func parent(of pid: pid_t) -> pid_t? {
        #if canImport(Darwin)
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
            guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0 else { return nil }
            return info.kp_eproc.e_ppid
        #else
            // "pid (comm) state ppid …": the command may hold spaces and parentheses.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.range(of: ")", options: .backwards)
            else { return nil }
            return stat[close.upperBound...].split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
        #endif
    }

    private static func privateDirectories() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
            .filter { $0.hasPrefix("clarityctl-") }.map { "/tmp/" + $0 }
    }

    /// SIGTERM during an exploration took 5 s, said some devices did not stop, and exited 1; a
    /// write starved meanwhile was saved but never answered. Now the exploration stops first and
    /// answers its caller, and the daemon exits 0.
    @Test func aStopDuringAnExplorationAnswersItsCallerAndExitsZero() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let exploring = try daemon.connect(receiveTimeout: 60)
        try exploring.request(id: 1, "scenario.explore", Self.endless(jobs: 256))
        #expect(try daemon.eventually { try daemon.scenarioLoad().running == 1 })
        let writer = try daemon.connect()
        #expect(try writer.call(id: 1, "store.set", ["key": "k", "value": 1])?["result"]?["ok"] == true)
        daemon.kill(SIGTERM)
        let answer = try #require(try exploring.answer(), "\(daemon.log)")
        #expect(answer["result"]?["stoppedBy"] == "shutdown", "\(answer)")
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(!daemon.log.contains("did not stop"))
        try daemon.start()
        #expect(try daemon.call("store.get", ["key": "k"])["value"] == 1)
    }
}
