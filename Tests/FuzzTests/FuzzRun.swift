import ControlProtocol
import DaemonTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run found, and its numbers.
struct FuzzReport: Sendable {
    var summary: String
    var failures: [Finding]
    var notes: [Finding]
}

/// One fuzzing run: starts a daemon, gives each worker a device of its own, then runs rounds —
/// every worker takes its steps at once, now and then the daemon is killed (`kill -9` during or
/// after a round, SIGTERM, `daemon.shutdown`) and started again — and checks after each round:
/// the daemon runs and answers `daemon.ping`, no answer was -32603, every acknowledged tracked
/// write is still there, its memory stays under the bound, its log has no error; after a restart
/// between rounds, the workers' devices answer as before.
///
/// Used from one thread; the workers run on threads of their own during a round.
final class FuzzRun {
    private enum Restart: String {
        case killDuringRound = "kill -9 during a round"
        case killAfterRound = "kill -9 between rounds"
        case terminate = "SIGTERM"
        case shutdown = "daemon.shutdown"
        /// After a crash or a hang (a hung daemon is killed with -9).
        case recovery = "recovery after a crash or hang"
    }

    /// Crashes and hangs the run recovers from before it gives up.
    private static let maximumRecoveries = 20

    private let settings: FuzzSettings
    private let shared: FuzzShared
    private var random: FuzzRandom
    private var daemon: DaemonProcess?
    private var workers: [FuzzWorker] = []
    private var checker: RawConnection?
    private var checkCounter = 0
    private var checkRequests = 0
    private var logOffset: UInt64 = 0
    private var restarts: [String: Int] = [:]
    private var roundsRun = 0
    private var recoveries = 0
    private var restartsChecked = 0
    private var setup: [String] = []
    private let compactJournalAfter: Int
    private let durability: String

    init(settings: FuzzSettings) {
        self.settings = settings
        shared = FuzzShared(settings: settings)
        random = FuzzRandom(seed: settings.seed, stream: 0)
        compactJournalAfter = random.chance(0.3) ? 64 : 0
        durability = random.chance(0.5) ? "fsync" : "write"
    }

    func run() -> FuzzReport {
        let config: JSONValue = ["compactJournalAfter": .int(compactJournalAfter), "durability": .string(durability)]
        setup.append("requests fingerprint \(RequestGenerator.fingerprint(seed: settings.seed, workers: settings.workers)) (the first 200 steps of each worker)")
        setup.append("daemon config \(wireText(config))")
        let daemon: DaemonProcess
        do {
            daemon = try DaemonProcess(config: config)
        } catch {
            shared.record(Finding(kind: .restartFailed, signature: "start", detail: "clarityd did not start: \(error)"), stop: true)
            return report(fuzzSeconds: 0)
        }
        self.daemon = daemon
        shared.state.withLock { $0.pid = daemon.processIdentifier }
        let sampler = startMemorySampler()
        workers = (0..<settings.workers).map { FuzzWorker(index: $0, seed: settings.seed, socketPath: daemon.socketPath, shared: shared) }
        createOwnDevices()

        let started = Date()
        var lastProgress = started
        var round = 0
        while !shared.finished {
            if let rounds = settings.rounds {
                if round >= rounds { break }
            } else if Date().timeIntervalSince(started) >= settings.seconds {
                break
            }
            let action: Restart? = random.weighted([
                (80, nil), (10, .killDuringRound), (5, .killAfterRound), (3, .terminate), (2, .shutdown),
            ])
            let killDelay = random.int(20...1500)
            runWorkers(round: round, killAfterMilliseconds: action == .killDuringRound ? killDelay : nil)
            roundsRun = round + 1
            if !checkAfterRound("after round \(round)") { break }
            if let action, action != .killDuringRound, !restartBetweenRounds(action, context: "after round \(round)") { break }
            round += 1
            if Date().timeIntervalSince(lastProgress) >= 60 {
                lastProgress = Date()
                say("FuzzTests: \(Int(lastProgress.timeIntervalSince(started))) s, round \(round), \(requestCount) requests, peak RSS \(peakMegabytes)")
            }
        }
        let fuzzSeconds = Date().timeIntervalSince(started)
        // Last: everything acknowledged must survive one more kill -9.
        if !shared.finished { _ = restartBetweenRounds(.killAfterRound, context: "at the end of the run") }
        scanLog()
        shared.state.withLock { $0.pid = 0 }
        sampler.wait()
        // A daemon that could not start again, or lost a write, leaves its state behind to look at.
        let keep = shared.state.withLock { $0.findings.contains { [.restartFailed, .lostWrite].contains($0.kind) } }
        if keep { setup.append("the daemon's socket, state directory and log are kept in \(daemon.directory.path)") }
        daemon.stop(keepingDirectory: keep)
        return report(fuzzSeconds: fuzzSeconds)
    }

    // MARK: rounds

    private func runWorkers(round: Int, killAfterMilliseconds: Int?) {
        let group = DispatchGroup()
        let steps = settings.stepsPerRound
        for worker in workers {
            group.enter()
            let thread = Thread {
                worker.runRound(round, steps: steps)
                group.leave()
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        if let killAfterMilliseconds, group.wait(timeout: .now() + .milliseconds(killAfterMilliseconds)) == .timedOut {
            _ = restart(.killDuringRound)
        }
        group.wait()
    }

    private func createOwnDevices() {
        for worker in workers {
            var params: [(String, FuzzValue)] = [("device", .string(worker.ownDevice))]
            if random.chance(0.5) { params.append(("start", .string(random.pick(Vocabulary.starts)))) }
            if random.chance(0.6) { params.append(("timezone", .string(random.pick(Vocabulary.timezones)))) }
            params.append(("seed", .int(random.int(0...1000))))
            if random.chance(0.4) {
                params.append(("config", .object([("quirks", .object(Vocabulary.quirks.filter { _ in random.chance(0.4) }.map { ($0, .bool(true)) }))])))
            }
            let request = FuzzValue.object(params)
            switch call("device.create", request) {
            case .result: setup.append("device.create \(request.text)")
            case .error(let code, let message):
                setup.append("device.create \(request.text) was refused (\(code) \(message)); created with defaults")
                _ = call("device.create", .object([("device", .string(worker.ownDevice))]))
            case .failed(let why): setup.append("device.create \(request.text): \(why)")
            }
        }
    }

    private func restart(_ kind: Restart) -> Bool {
        guard let daemon else { return false }
        shared.state.withLock {
            $0.restarting = true
            $0.epoch += 1
        }
        if kind == .shutdown {
            switch call("daemon.shutdown", nil) {
            case .result: break
            case .error(let code, let message):
                shared.record(Finding(kind: .badResponse, signature: "shutdown refused", detail: "daemon.shutdown was refused: \(code) \(message)"))
                daemon.kill(SIGTERM)
            case .failed(let why):
                shared.record(Finding(kind: .badResponse, signature: "shutdown failed", detail: "daemon.shutdown: \(why)"))
                daemon.kill(SIGTERM)
            }
        } else {
            daemon.kill(kind == .terminate ? SIGTERM : SIGKILL)
        }
        checker = nil
        let status = daemon.waitForExit(timeout: 30)
        let expected: Int32 = kind == .terminate || kind == .shutdown ? 0 : 137
        if status != expected, kind != .recovery {
            shared.record(
                Finding(
                    kind: .crash, signature: signature("exit", kind.rawValue),
                    detail: "after \(kind.rawValue) the daemon exited with status \(status), not \(expected)"
                        + (status == 137 ? " (it did not exit within 30 s and was killed)" : "") + "\n" + logTail()))
        }
        scanLog()
        do {
            try daemon.start(timeout: 60)
        } catch {
            shared.state.withLock { $0.restarting = false }
            shared.record(
                Finding(kind: .restartFailed, signature: signature("restart", kind.rawValue), detail: "after \(kind.rawValue): \(error)"),
                stop: true)
            return false
        }
        shared.state.withLock {
            $0.restarting = false
            $0.pid = daemon.processIdentifier
        }
        restarts[kind.rawValue, default: 0] += 1
        return true
    }

    /// A restart while nothing is in flight: the workers' devices must answer exactly as before,
    /// and every acknowledged write must be there.
    private func restartBetweenRounds(_ kind: Restart, context: String) -> Bool {
        let before = workers.map { snapshot(of: $0.ownDevice) }
        guard restart(kind) else { return false }
        for worker in workers { worker.disconnect() }
        for (worker, earlier) in zip(workers, before) {
            let now = snapshot(of: worker.ownDevice)
            for ((label, old), (_, new)) in zip(earlier, now) where old != new {
                let difference = firstDifference(old, new, path: "result")
                let method = String(label.prefix { $0 != " " })
                shared.record(
                    Finding(
                        kind: .restartVisible,
                        signature: signature("visible", method, String((difference ?? "").prefix { $0 != ":" })),
                        detail: """
                            seed \(settings.seed), \(context), \(kind.rawValue): device \(worker.ownDevice) answers \(label) differently after the restart
                              \(difference ?? "")
                              before: \(excerpt(old, limit: 300))
                              after:  \(excerpt(new, limit: 300))
                              the last requests to it:
                            \(shared.history(of: worker.ownDevice))
                            """))
            }
        }
        return checkAfterRound("\(context), after \(kind.rawValue)")
    }

    /// What a device answers to every read, as text.
    private func snapshot(of device: String) -> [(String, String)] {
        var reads: [(String, FuzzValue)] = [
            ("device.state", .object([("device", .string(device))])), ("activity.list", .object([("device", .string(device))])),
            ("shields.get", .object([("device", .string(device))])), ("notifications.list", .object([("device", .string(device))])),
            ("sandbox.list", .object([("device", .string(device))])), ("clock.now", .object([("device", .string(device))])),
            ("device.config", .object([("device", .string(device))])),
        ]
        for suite in Vocabulary.trackedSuites {
            reads.append(("store.dump", .object([("device", .string(device)), ("suite", .string(suite))])))
        }
        reads.append(("trace.get", .object([("device", .string(device)), ("since", .int(0)), ("limit", .int(300))])))
        return reads.map { method, params in
            let label = "\(method) \(params.text)"
            switch call(method, params) {
            case .result(let value): return (label, wireText(value))
            case .error(let code, _): return (label, "error \(code)")
            case .failed(let why): return (label, "failed: \(why)")
            }
        }
    }

    // MARK: checks

    /// The checks between rounds; false when the run must stop. A crash or a hang is recorded,
    /// and the daemon started again (killed first when it hangs): the run goes on.
    private func checkAfterRound(_ context: String) -> Bool {
        guard let daemon else { return false }
        if shared.finished { return false }
        let closes = shared.state.withLock { state in
            defer { state.unexpectedCloses = [] }
            return state.unexpectedCloses
        }
        let dropped = closes.map { "    " + $0 }.joined(separator: "\n")
        if !daemon.isRunning || shared.state.withLock({ $0.abortRound }) {
            if !closes.isEmpty { _ = daemon.exited(within: 1) }
            if !daemon.isRunning {
                let status = daemon.waitForExit(timeout: 1)
                let (location, backtrace) = crashReport(daemon.finalLog())
                shared.record(
                    Finding(
                        kind: .crash, signature: signature("crash", location ?? closes.first ?? ""),
                        detail: """
                            seed \(settings.seed), \(context): the daemon exited (status \(status)\(status == 0 ? ", as if a daemon.shutdown had been obeyed" : "")) with no signal from the fuzzer
                              requests whose connections it dropped (the culprit is among them):
                            \(dropped)
                            \(backtrace ?? logTail())
                            """))
            }
            recoveries += 1
            guard recoveries <= Self.maximumRecoveries else {
                shared.record(Finding(kind: .crash, signature: "too many", detail: "seed \(settings.seed): \(recoveries) crashes or hangs; the run stops"), stop: true)
                return false
            }
            guard restart(.recovery) else { return false }
            for worker in workers { worker.disconnect() }
            shared.state.withLock { $0.abortRound = false }
        } else {
            for close in closes {
                shared.record(
                    Finding(
                        kind: .connectionClosed, signature: signature("closed", String(close.drop { $0 != ":" }.prefix(80))),
                        detail: "\(close)\n  the daemon closed the connection (it is still running)"))
            }
        }
        switch call("daemon.ping", nil) {
        case .result: break
        case .error(let code, let message):
            shared.record(Finding(kind: .badResponse, signature: "ping", detail: "\(context): daemon.ping answered \(code) \(message)"))
        case .failed(let why):
            shared.record(
                Finding(
                    kind: .hang, signature: signature("ping", context),
                    detail: "seed \(settings.seed), \(context): daemon.ping on a fresh connection: \(why)\n  requests waiting, oldest first:\n\(shared.inFlightReport())"),
                stop: true)
            return false
        }
        scanLog()
        // After a restart each key is read with store.get; otherwise a store.dump per suite does.
        let restartsNow = restarts.values.reduce(0, +)
        defer { restartsChecked = restartsNow }
        return checkModel(context, keyByKey: restartsNow != restartsChecked)
    }

    /// Every tracked key holds what its owner's acknowledged writes left (or, for writes that may
    /// or may not have happened, one of the values they could have left).
    private func checkModel(_ context: String, keyByKey: Bool) -> Bool {
        for worker in workers {
            for suite in Vocabulary.trackedSuites {
                let keys = worker.model.keys.filter { $0.suite == suite }.sorted { $0.key < $1.key }
                if keys.isEmpty { continue }
                var values: [String: JSONValue]?
                let read: CallResult =
                    keyByKey
                    ? call("store.get", .object([("device", .string(worker.ownDevice)), ("suite", .string(suite)), ("key", .string(keys[0].key))]))
                    : call("store.dump", .object([("device", .string(worker.ownDevice)), ("suite", .string(suite))]))
                switch read {
                case .result where keyByKey: values = nil
                case .result(let result): values = result["values"]?.objectValue ?? [:]
                case .error(let code, let message) where code != -32603:
                    // The device is gone: recorded, created again, its model started afresh.
                    shared.record(
                        Finding(
                            kind: .lostWrite, signature: signature("lost device", String(message.prefix(60))),
                            detail: "seed \(settings.seed), \(context): reading device \(worker.ownDevice): \(code) \(message)\n  restarts so far: \(restarts)\n  the last requests to it:\n\(shared.history(of: worker.ownDevice))"))
                    _ = call("device.create", .object([("device", .string(worker.ownDevice))]))
                    worker.model = [:]
                    continue
                case .error: values = nil  // a -32603, reported: read key by key
                case .failed(let why):
                    shared.record(
                        Finding(kind: .hang, signature: signature("check", context), detail: "seed \(settings.seed), \(context): reading device \(worker.ownDevice): \(why)"),
                        stop: true)
                    return false
                }
                for key in keys {
                    let actual: JSONValue?
                    if let values {
                        actual = values[key.key]
                    } else {
                        let params = FuzzValue.object([("device", .string(worker.ownDevice)), ("suite", .string(suite)), ("key", .string(key.key))])
                        guard case .result(let result) = call("store.get", params) else { continue }
                        // (Not `nil` in a closure: JSONValue is ExpressibleByNilLiteral, so it would be `.null`.)
                        if let value = result["value"], value != JSONValue.null { actual = value } else { actual = Optional.none }
                    }
                    let candidates = worker.model[key] ?? [.absent]
                    guard candidates.contains(where: { $0.admits(actual) }) else {
                        let expected = candidates.map { candidate -> String in
                            switch candidate {
                            case .absent: "absent"
                            case .anything: "anything"
                            case .value(let value): excerpt(wireText(value), limit: 200)
                            }
                        }
                        shared.record(
                            Finding(
                                kind: .lostWrite, signature: signature("lost", suite, context.contains("after") ? String(context.drop { $0 != "," }) : ""),
                                detail: """
                                    seed \(settings.seed), \(context): device \(worker.ownDevice), suite \(suite), key \(key.key)
                                      reads \(actual.map { excerpt(wireText($0), limit: 200) } ?? "absent"); expected \(expected.joined(separator: " or "))
                                      its writes:
                                    \((worker.writeLog[key] ?? []).map { "    " + $0 }.joined(separator: "\n"))
                                      restarts so far: \(restarts)
                                    """))
                        worker.model[key] = [actual.map { .value($0) } ?? .absent]
                        continue
                    }
                    worker.model[key] = [actual.map { .value($0) } ?? .absent]
                }
            }
        }
        return true
    }

    private func startMemorySampler() -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        let shared = self.shared
        let bound = settings.maxResidentMegabytes * 1024
        let thread = Thread {
            defer { group.leave() }
            while true {
                let pid = shared.state.withLock { $0.pid }
                if pid == 0 && shared.state.withLock({ !$0.restarting }) { return }
                if let kilobytes = residentKilobytes(of: pid) {
                    let peak = shared.state.withLock { state in
                        state.peakResidentKilobytes = max(state.peakResidentKilobytes, kilobytes)
                        return state.peakResidentKilobytes
                    }
                    if peak > bound, !shared.finished {
                        shared.record(
                            Finding(
                                kind: .memory, signature: "rss",
                                detail: "seed \(shared.settings.seed): the daemon's RSS reached \(peak / 1024) MB, over the bound of \(bound / 1024) MB\n  the last requests:\n\(shared.inFlightReport())"),
                            stop: true)
                    }
                }
                usleep(200_000)
            }
        }
        thread.start()
        return group
    }

    /// New lines of the daemon's log: an ERROR, or a replay that took another path, is a finding.
    private func scanLog() {
        guard let daemon, let handle = FileHandle(forReadingAtPath: daemon.directory.appendingPathComponent("clarityd.log").path)
        else { return }
        defer { try? handle.close() }
        try? handle.seek(toOffset: logOffset)
        guard let data = try? handle.readToEnd(), !data.isEmpty else { return }
        guard let lastNewline = data.lastIndex(of: 0x0A) else { return }
        let complete = data[data.startIndex...lastNewline]
        logOffset += UInt64(complete.count)
        for line in String(decoding: complete, as: UTF8.self).split(separator: "\n") {
            let message = line.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? String(line)
            if message.hasPrefix("ERROR ") {
                shared.record(
                    Finding(kind: .logError, signature: signature("log", String(message.prefix(120))), detail: "seed \(settings.seed): \(excerpt(message, limit: 800))"))
            } else if message.contains("took another path") {
                // One finding, whatever the device, line and method.
                shared.record(
                    Finding(kind: .restartVisible, signature: "replay took another path", detail: "seed \(settings.seed): \(excerpt(message, limit: 800))"))
            }
        }
    }

    private func logTail() -> String {
        guard let daemon else { return "" }
        let lines = daemon.log.split(separator: "\n").suffix(25)
        return "  the daemon's log ends:\n" + lines.map { "    " + excerpt(String($0), limit: 300) }.joined(separator: "\n")
    }

    // MARK: the coordinator's own requests

    private enum CallResult {
        case result(JSONValue)
        case error(Int, String)
        case failed(String)
    }

    private func call(_ method: String, _ params: FuzzValue?) -> CallResult {
        guard let daemon else { return .failed("no daemon") }
        for _ in 0..<2 {
            guard let connection = checker ?? (try? RawConnection(path: daemon.socketPath, receiveTimeout: 1)) else {
                return .failed("cannot connect")
            }
            checker = connection
            checkCounter += 1
            checkRequests += 1
            let id = "check.\(checkCounter)"
            var members: [(String, FuzzValue)] = [("jsonrpc", .string("2.0")), ("id", .string(id)), ("method", .string(method))]
            if let params { members.append(("params", params)) }
            guard (try? connection.send(FuzzValue.object(members).bytes + [0x0A])) != nil else {
                checker = nil
                continue
            }
            while true {
                let (result, _) = readAnswer(connection, hangSeconds: settings.hangSeconds) { false }
                switch result {
                case .line(let bytes):
                    guard let answer = try? ResponseParser.parse(bytes) else {
                        return .failed("the answer is not JSON: \(excerpt(bytes))")
                    }
                    guard answer["id"] == .string(id) else { continue }
                    if let error = answer["error"] {
                        let code = error["code"]?.intValue ?? 0
                        let message = error["message"]?.stringValue ?? ""
                        if code == -32603 {
                            shared.record(
                                Finding(
                                    kind: .internalError, signature: signature("-32603", "check", method, String(message.prefix(80))),
                                    detail: "seed \(settings.seed): the fuzzer's check \(method) \(params?.text ?? "")\n      <-- \(excerpt(bytes, limit: 600))"))
                        }
                        return .error(code, message)
                    }
                    return .result(answer["result"] ?? .null)
                case .closed, .aborted:
                    checker = nil
                    if method == "daemon.shutdown" { return .result(.null) }
                    return .failed("the daemon closed the connection")
                case .hang:
                    checker = nil
                    return .failed("no answer in \(Int(settings.hangSeconds)) s")
                }
            }
        }
        return .failed("cannot send")
    }

    // MARK: report

    private var requestCount: Int { workers.reduce(0) { $0 + $1.requestsSent } }
    private var peakMegabytes: String {
        let kilobytes = shared.state.withLock { $0.peakResidentKilobytes }
        return kilobytes == 0 ? "n/a (no /proc)" : "\(kilobytes / 1024) MB"
    }

    private func report(fuzzSeconds: Double) -> FuzzReport {
        let findings = shared.state.withLock { $0.findings }
        var coverage: [String: Int] = [:]
        var codes: [Int: Int] = [:]
        for worker in workers {
            coverage.merge(worker.coverage, uniquingKeysWith: +)
            codes.merge(worker.errorCodes, uniquingKeysWith: +)
        }
        let requests = requestCount
        let lines = workers.reduce(0) { $0 + $1.linesSent }
        let bytes = workers.reduce(0) { $0 + $1.bytesSent }
        let answers = workers.reduce(0) { $0 + $1.answersRead }
        for (label, count) in coverage where label.contains(":") {
            coverage[String(label.prefix { $0 != ":" }), default: 0] += count
        }
        func missing(_ names: [String], _ prefix: String) -> String {
            let absent = names.filter { coverage[prefix + $0] == nil }
            return "\(names.count - absent.count)/\(names.count)" + (absent.isEmpty ? "" : " (not sent: \(absent.joined(separator: ", ")))")
        }
        let rate = fuzzSeconds > 0 ? Double(requests) / fuzzSeconds : 0
        let hangs = findings.filter { $0.kind == .hang }.reduce(0) { $0 + $1.count }
        let waited = Double(hangs) * settings.hangSeconds
        let busyRate = fuzzSeconds > waited ? Double(requests) / (fuzzSeconds - waited) : rate
        var summary = """
            FuzzTests: seed \(settings.seed) — replay with \(settings.replayHint)
              \(String(format: "%.1f", fuzzSeconds)) s of fuzzing, \(roundsRun) rounds × \(settings.workers) workers × \(settings.stepsPerRound) steps
              \(requests) requests (+\(checkRequests) checks) in \(lines) lines, \(bytes / 1024) KiB; \(answers) answer lines; \(String(format: "%.0f", rate)) requests/s\(hangs == 0 ? "" : " (\(String(format: "%.0f", busyRate)) without the \(hangs) hang waits of \(Int(settings.hangSeconds)) s)")
              restarts: \(restarts.isEmpty ? "none" : restarts.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", "))
              peak RSS \(peakMegabytes) (bound \(settings.maxResidentMegabytes) MB)
              methods \(missing(Vocabulary.methods, "")), events \(missing(Vocabulary.eventTypes, "event:")), intents \(missing(Vocabulary.intents, "intent:"))
              error codes: \(codes.sorted { $0.key > $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " "))
            """
        let slowest = workers.flatMap(\.slowest).sorted { $0.0 > $1.0 }.prefix(5)
        summary += "\n  slowest steps: " + slowest.map { String(format: "%.2f s ", $0.0) + $0.1 }.joined(separator: "; ")
        for line in setup { summary += "\n  " + line }
        let failures = findings.filter(\.failsTheRun)
        let notes = findings.filter { !$0.failsTheRun }
        summary += "\n  findings: \(failures.count)" + (notes.isEmpty ? "" : ", notes: \(notes.count)")
        for finding in failures + notes {
            summary += "\n  - \(finding.kind.rawValue) ×\(finding.count): \(finding.detail.split(separator: "\n").first ?? "")"
        }
        return FuzzReport(summary: summary, failures: failures, notes: notes)
    }
}

/// Where two JSON texts first differ, as a path.
func firstDifference(_ old: String, _ new: String, path: String) -> String? {
    guard let a = try? ResponseParser.parse(Array(old.utf8)), let b = try? ResponseParser.parse(Array(new.utf8)) else { return nil }
    func walk(_ a: JSONValue, _ b: JSONValue, _ path: String) -> String? {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for key in Set(x.keys).union(y.keys).sorted() {
                guard let left = x[key], let right = y[key] else { return "\(path).\(key): only \(x[key] == nil ? "after" : "before")" }
                if let found = walk(left, right, "\(path).\(key)") { return found }
            }
            return nil
        case (.array(let x), .array(let y)):
            for (index, (left, right)) in zip(x, y).enumerated() {
                if let found = walk(left, right, "\(path)[\(index)]") { return found }
            }
            return x.count == y.count ? nil : "\(path): \(x.count) elements before, \(y.count) after"
        default:
            return a == b ? nil : "\(path): \(excerpt(wireText(a), limit: 120)) before, \(excerpt(wireText(b), limit: 120)) after"
        }
    }
    return walk(a, b, path)
}
