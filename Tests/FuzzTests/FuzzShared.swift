import ControlProtocol
import DaemonTestSupport
import Foundation

/// How a run is set up: from the environment, with defaults for the short run of `swift test`.
struct FuzzSettings: Sendable {
    /// `CLARITYD_FUZZ_SEED`, else the day (UTC) as `yyyymmdd`: the short run changes once a day
    /// and a failure can be replayed.
    var seed: UInt64
    /// `CLARITYD_FUZZ_SECONDS`: how long to fuzz (15 s by default). No round starts after it.
    var seconds: Double
    /// `CLARITYD_FUZZ_ROUNDS`: run exactly that many rounds, whatever the time.
    var rounds: Int?
    /// `CLARITYD_FUZZ_WORKERS`: connections sending at once (4).
    var workers: Int
    /// Steps each worker takes per round; the checks run between rounds.
    var stepsPerRound = 20
    /// `CLARITYD_FUZZ_HANG_SECONDS`: a request unanswered this long is a hang (60). A request
    /// answered after more than ``slowSeconds`` is reported as slow but does not fail the run.
    var hangSeconds: Double
    var slowSeconds: Double { min(20, hangSeconds) }
    /// `CLARITYD_FUZZ_MAX_RSS_MB`: the daemon's resident memory must stay under this (512 MB).
    var maxResidentMegabytes: Int

    static func fromEnvironment(defaultSeconds: Double = 15) -> FuzzSettings {
        let environment = ProcessInfo.processInfo.environment
        func number(_ name: String) -> Double? { environment[name].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
        let day = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date())
        let daily = UInt64(day.year! * 10_000 + day.month! * 100 + day.day!)
        return FuzzSettings(
            seed: environment["CLARITYD_FUZZ_SEED"].flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) } ?? daily,
            seconds: number("CLARITYD_FUZZ_SECONDS") ?? defaultSeconds,
            rounds: number("CLARITYD_FUZZ_ROUNDS").map { Int($0) },
            workers: max(1, min(16, number("CLARITYD_FUZZ_WORKERS").map { Int($0) } ?? 4)),
            hangSeconds: max(5, number("CLARITYD_FUZZ_HANG_SECONDS") ?? 60),
            maxResidentMegabytes: number("CLARITYD_FUZZ_MAX_RSS_MB").map { Int($0) } ?? 512)
    }

    var replayHint: String {
        "CLARITYD_FUZZ_SEED=\(seed)" + (rounds.map { " CLARITYD_FUZZ_ROUNDS=\($0)" } ?? " CLARITYD_FUZZ_SECONDS=\(Int(seconds))")
            + " swift test --filter FuzzTests"
    }
}

/// Something the daemon did wrong (or, for `slow`, something worth knowing).
struct Finding: Sendable {
    enum Kind: String, Sendable {
        case internalError = "internal error (-32603)"
        case hang = "hang"
        case crash = "crash"
        case restartFailed = "restart failed"
        case lostWrite = "lost write"
        case connectionClosed = "connection closed"
        case badResponse = "bad response"
        case invalidNameAccepted = "invalid device name accepted"
        case restartVisible = "restart not invisible"
        case logError = "error in the daemon's log"
        case memory = "memory"
        case slow = "slow request"
    }

    var kind: Kind
    /// Findings with the same signature are one finding, counted.
    var signature: String
    var detail: String
    var count = 1
    var failsTheRun: Bool { kind != .slow }
}

/// A request a worker has sent and not yet seen answered: on a hang, the oldest is the likely culprit.
struct InFlight: Sendable {
    let worker: Int
    let since: Date
    let what: String
}

/// What the coordinator, the workers and the memory sampler share.
final class FuzzShared: Sendable {
    struct State {
        /// Incremented at each restart the fuzzer makes: a connection lost across it was expected.
        var epoch = 0
        var restarting = false
        /// A finding that ends the run (the daemon does not come back, memory over the bound).
        var stop = false
        /// A hang, or a daemon gone: the workers end the round, the coordinator kills and restarts
        /// the daemon, and the run goes on.
        var abortRound = false
        var findings: [Finding] = []
        var inFlight: [Int: InFlight] = [:]
        /// The last requests sent to each device, for reports.
        var history: [String: [String]] = [:]
        /// The last `device.create` requests for each device name.
        var creations: [String: [String]] = [:]
        /// Connections the daemon closed with no restart by the fuzzer: judged at the round's end.
        var unexpectedCloses: [String] = []
        var pid: Int32 = 0
        var peakResidentKilobytes = 0
    }

    let settings: FuzzSettings
    let state = Locked(State())

    init(settings: FuzzSettings) {
        self.settings = settings
    }

    /// Workers end their round.
    var stopping: Bool { state.withLock { $0.stop || $0.abortRound } }
    /// The run ends.
    var finished: Bool { state.withLock { $0.stop } }

    func abortRound() {
        state.withLock { $0.abortRound = true }
    }

    func record(_ finding: Finding, stop: Bool = false) {
        state.withLock { state in
            if stop { state.stop = true }
            if let index = state.findings.firstIndex(where: { $0.signature == finding.signature }) {
                state.findings[index].count += 1
            } else {
                state.findings.append(finding)
            }
        }
    }

    func remember(device: String, _ what: String) {
        state.withLock { state in
            state.history[device, default: []].append(what)
            if state.history[device]!.count > 40 { state.history[device]!.removeFirst() }
        }
    }

    func rememberCreation(of device: String, _ what: String) {
        state.withLock { state in
            state.creations[device, default: []].append(what)
            if state.creations[device]!.count > 3 { state.creations[device]!.removeFirst() }
        }
    }

    func creations(of device: String) -> String {
        let lines = state.withLock { $0.creations[device] ?? [] }
        return lines.isEmpty ? "    (by the fuzzer at the start, or the daemon: see the run's setup)" : lines.map { "    " + $0 }.joined(separator: "\n")
    }

    func history(of device: String) -> String {
        let lines = state.withLock { $0.history[device] ?? [] }
        return lines.isEmpty ? "(none)" : lines.map { "    " + $0 }.joined(separator: "\n")
    }

    /// Requests sent and not answered yet, oldest first.
    func inFlightReport() -> String {
        let now = Date()
        let entries = state.withLock { Array($0.inFlight.values) }.sorted { $0.since < $1.since }
        return entries.map { "    worker \($0.worker), waiting \(Int(now.timeIntervalSince($0.since))) s: \($0.what)" }
            .joined(separator: "\n")
    }
}

/// A finding's signature: its text without numbers, so one bug hit many times is one finding.
func signature(_ parts: String...) -> String {
    String(parts.joined(separator: "|").map { $0.isNumber ? "#" : $0 }.prefix(200))
}

/// The daemon's resident memory in kB (`VmRSS` in `/proc/<pid>/status`); nil off Linux.
func residentKilobytes(of pid: Int32) -> Int? {
    #if os(Linux)
        guard pid > 0, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    #else
        return nil
    #endif
}

/// Where the daemon crashed, from what the Swift runtime wrote to its log: the failure and the
/// first frames of the crashed thread that are in the project's sources.
func crashReport(_ log: String) -> (String?, String?) {
    let lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.lastIndex(where: { $0.hasPrefix("*** Signal") || $0.contains("Fatal error") }) else { return (nil, nil) }
    var tail = Array(lines[start...])
    let fatal = lines[..<start].suffix(8).last { $0.contains("Fatal error") }
    if let crashed = tail.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix("crashed:") }) {
        let after = tail[(crashed + 1)...]
        tail = Array(after.prefix { !$0.hasPrefix("Thread ") && !$0.hasPrefix("Registers") })
    }
    let failure = fatal ?? tail.first { $0.contains("Fatal error") || $0.contains("runtime failure") }
    let frames = tail.filter { $0.contains("/Sources/") && !$0.contains("runtime failure") }.prefix(6)
    let location = frames.first.flatMap { frame in frame.range(of: "/Sources/").map { String(frame[$0.lowerBound...]) } }
    // Without the frame number and the address, which change from one run to the next.
    let failureText = failure.map { $0.split(separator: " ").filter { !$0.hasPrefix("0x") }.drop { $0.allSatisfy(\.isNumber) }.joined(separator: " ") }
    let report = ((failureText.map { [$0] } ?? []) + frames).map { "    " + excerpt($0, limit: 300) }
    return ([failureText, location].compactMap { $0 }.joined(separator: " "), "  the daemon's backtrace:\n" + report.joined(separator: "\n"))
}

/// A value behind an `NSLock` (pthread's mutex, which ThreadSanitizer follows: the
/// `Synchronization` module's `Mutex` locks with futexes it cannot see, so every access it guards
/// was reported as a race by scripts/sanitizers.sh).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
