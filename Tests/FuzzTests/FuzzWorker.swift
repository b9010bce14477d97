import ControlProtocol
import DaemonTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What may be read back from a tracked key.
enum Expected: Equatable {
    case absent
    case value(JSONValue)
    /// A write whose stored form the fuzzer cannot predict.
    case anything

    func admits(_ actual: JSONValue?) -> Bool {
        switch self {
        case .anything: return true
        case .absent:
            if case .none = actual { return true }
            return false
        case .value(let value): return actual?.isStoredValue(value) ?? false
        }
    }
}

struct ModelKey: Hashable {
    let suite: String
    let key: String
}

/// How reading an answer ended.
enum ReadResult {
    case line([UInt8])
    case closed
    /// Nothing came for the hang timeout.
    case hang
    /// The run is stopping.
    case aborted
}

/// Reads one line from `connection` (whose receive timeout is short), waiting up to `hangSeconds`.
func readAnswer(_ connection: RawConnection, hangSeconds: Double, stopping: () -> Bool) -> (ReadResult, seconds: Double) {
    let start = Date()
    while true {
        do {
            guard let line = try connection.readLineBytes() else { return (.closed, Date().timeIntervalSince(start)) }
            return (.line(line), Date().timeIntervalSince(start))
        } catch let failure as RawConnection.Failure where failure.errno == EAGAIN || failure.errno == EWOULDBLOCK {
            if stopping() { return (.aborted, 0) }
            if Date().timeIntervalSince(start) > hangSeconds { return (.hang, hangSeconds) }
        } catch {
            return (.closed, Date().timeIntervalSince(start))
        }
    }
}

/// Error codes docs/protocol.md lists.
let documentedCodes: Set<Int> = [-32700, -32600, -32601, -32602, -32603, -32000, -32001, -32002, -32003, -32004, -32005]

/// One connection sending generated steps, and the owner of one device whose tracked keys it
/// models.
///
/// Unchecked `Sendable`: a worker is used by one thread at a time — its own during a round, the
/// coordinator's between rounds (the round's `DispatchGroup` orders the two).
final class FuzzWorker: @unchecked Sendable {
    let index: Int
    let ownDevice: String
    private let socketPath: String
    private let shared: FuzzShared
    private var generator: RequestGenerator
    private var connection: RawConnection?
    /// The restart epoch when ``connection`` was made: lost after a later restart, as expected.
    private var connectedEpoch = 0
    private var syncCounter = 0
    private var round = 0
    private var stepNumber = 0
    /// The worker could not reach the daemon: it ends its round.
    private var unreachable = false

    /// What each tracked key of ``ownDevice`` may hold.
    var model: [ModelKey: [Expected]] = [:]
    /// The last tracked writes per key, for reports.
    var writeLog: [ModelKey: [String]] = [:]

    var requestsSent = 0
    var linesSent = 0
    var bytesSent = 0
    var answersRead = 0
    var coverage: [String: Int] = [:]
    var errorCodes: [Int: Int] = [:]
    /// The slowest steps (seconds, what), for the summary.
    var slowest: [(Double, String)] = []

    init(index: Int, seed: UInt64, socketPath: String, shared: FuzzShared) {
        self.index = index
        ownDevice = "own\(index)"
        self.socketPath = socketPath
        self.shared = shared
        generator = RequestGenerator(seed: seed, worker: index, ownDevice: ownDevice)
    }

    func runRound(_ round: Int, steps: Int) {
        self.round = round
        unreachable = false
        for _ in 0..<steps {
            if shared.stopping || unreachable { return }
            let step = generator.next()
            stepNumber += 1
            let started = Date()
            perform(step)
            let seconds = Date().timeIntervalSince(started)
            if slowest.count < 5 || seconds > slowest[slowest.count - 1].0 {
                slowest.append((seconds, "\(step.label.prefix(70)) (\(step.bytes / 1024) KiB)"))
                slowest.sort { $0.0 > $1.0 }
                if slowest.count > 5 { slowest.removeLast() }
            }
        }
    }

    /// Drops the connection (the daemon was restarted between rounds).
    func disconnect() {
        connection = nil
    }

    // MARK: performing a step

    private var position: String { "seed \(shared.settings.seed), round \(round), worker \(index), step \(stepNumber)" }

    private func describe(_ step: Step) -> String {
        var text = "\(position): \(step.label)"
        for line in step.lines.prefix(4) { text += "\n      --> " + excerpt(line) }
        if step.lines.count > 4 { text += "\n      (and \(step.lines.count - 4) more lines)" }
        return text
    }

    private func perform(_ step: Step) {
        let description = describe(step)
        requestsSent += step.requests.count
        linesSent += step.lines.count
        bytesSent += step.bytes
        for request in step.requests {
            let label = request.label.split(separator: " ").first.map(String.init) ?? request.label
            coverage[label, default: 0] += 1
        }
        var devices: [String] = []
        for device in step.requests.compactMap(\.device) where !devices.contains(device) { devices.append(device) }
        let summary = "r\(round) w\(index) s\(stepNumber) " + (step.lines.first.map { excerpt($0, limit: 300) } ?? "")
            + (step.lines.count > 1 ? " (+\(step.lines.count - 1) lines)" : "")
        for device in devices { shared.remember(device: device, summary) }
        let lines = step.lines.count == step.requests.count ? step.lines : Array(repeating: step.lines.first ?? [], count: step.requests.count)
        for (request, line) in zip(step.requests, lines) where request.label.hasPrefix("device.create") {
            if let device = request.device { shared.rememberCreation(of: device, "r\(round) w\(index) s\(stepNumber) " + excerpt(line, limit: 400)) }
        }

        switch step.transport {
        case .abandon:
            guard let abandoned = try? RawConnection(path: socketPath, receiveTimeout: 1) else { return }
            let bytes = step.lines[0] + step.lineEnd
            try? abandoned.send(Array(bytes.prefix(step.cuts.first ?? 1)))
        case .oneShot: performOneShot(step, description)
        case .connection, .chunked: performOnConnection(step, description)
        }
    }

    private var epoch: (Int, Bool) { shared.state.withLock { ($0.epoch, $0.restarting) } }

    private func waitUntilUp() {
        let deadline = Date(timeIntervalSinceNow: 180)
        while shared.state.withLock({ $0.restarting && !$0.stop }), Date() < deadline { usleep(20_000) }
    }

    private func ensureConnection() -> RawConnection? {
        if let connection { return connection }
        for _ in 0..<50 {
            waitUntilUp()
            if shared.stopping { return nil }
            let before = epoch.0
            if let made = try? RawConnection(path: socketPath, receiveTimeout: 1) {
                connection = made
                connectedEpoch = before
                return made
            }
            usleep(100_000)
        }
        shared.state.withLock { $0.unexpectedCloses.append("\(position): cannot connect to the daemon") }
        unreachable = true
        shared.abortRound()
        return nil
    }

    private func performOnConnection(_ step: Step, _ description: String) {
        guard let connection = ensureConnection() else { return }
        let sentAt = connectedEpoch
        var payload: [UInt8] = []
        for line in step.lines { payload += line + step.lineEnd }
        var sentinel: JSONValue?
        if step.singleID == nil {
            syncCounter += 1
            let id = "w\(index).sync.\(syncCounter)"
            sentinel = .string(id)
            payload += FuzzValue.object([("jsonrpc", .string("2.0")), ("id", .string(id)), ("method", .string("daemon.ping"))]).bytes
            payload.append(0x0A)
            requestsSent += 1
        }
        shared.state.withLock { $0.inFlight[index] = InFlight(worker: index, since: Date(), what: description) }
        defer { _ = shared.state.withLock { $0.inFlight.removeValue(forKey: index) } }
        do {
            if step.transport == .chunked {
                var from = 0
                for cut in step.cuts + [payload.count] where cut > from && cut <= payload.count {
                    try connection.send(Array(payload[from..<cut]))
                    from = cut
                    usleep(1000)
                }
            } else {
                try connection.send(payload)
            }
        } catch {
            connectionLost(step, description, since: sentAt)
            return
        }
        var answers: [[UInt8]] = []
        reading: while true {
            let (result, seconds) = readAnswer(connection, hangSeconds: shared.settings.hangSeconds) { shared.stopping }
            switch result {
            case .line(let bytes):
                answersRead += 1
                if seconds > shared.settings.slowSeconds { noteSlow(step, description, seconds) }
                let parsed = try? ResponseParser.parse(bytes)
                if let sentinel {
                    if parsed?["id"] == sentinel { break reading }
                    answers.append(bytes)
                } else {
                    answers.append(bytes)
                    if parsed?["method"] != nil, parsed?["id"] == nil { continue }
                    break reading
                }
            case .closed:
                judge(step, description, answers, interrupted: true)
                connectionLost(step, description, since: sentAt)
                return
            case .hang:
                reportHang(step, description)
                judge(step, description, answers, interrupted: true)
                return
            case .aborted:
                judge(step, description, answers, interrupted: true)
                return
            }
        }
        judge(step, description, answers, interrupted: false)
        if step.mayClose { self.connection = nil }
    }

    private func performOneShot(_ step: Step, _ description: String) {
        waitUntilUp()
        let (sentAt, _) = epoch
        guard let oneShot = try? RawConnection(path: socketPath, receiveTimeout: 1) else {
            connectionLost(step, description, since: sentAt)
            return
        }
        var payload: [UInt8] = []
        for line in step.lines { payload += line + step.lineEnd }
        if step.cuts == [-1] { payload.removeLast(step.lineEnd.count) }
        shared.state.withLock { $0.inFlight[index] = InFlight(worker: index, since: Date(), what: description) }
        defer { _ = shared.state.withLock { $0.inFlight.removeValue(forKey: index) } }
        do {
            try oneShot.send(payload)
        } catch {
            judge(step, description, [], interrupted: true)
            connectionLost(step, description, since: sentAt)
            return
        }
        oneShot.shutdownWrite()
        var answers: [[UInt8]] = []
        while true {
            let (result, seconds) = readAnswer(oneShot, hangSeconds: shared.settings.hangSeconds) { shared.stopping }
            switch result {
            case .line(let bytes):
                answersRead += 1
                if seconds > shared.settings.slowSeconds { noteSlow(step, description, seconds) }
                answers.append(bytes)
                continue
            case .closed:
                let (now, restarting) = epoch
                var interrupted = now != sentAt || restarting
                if !interrupted, answers.count < step.requests.filter({ $0.id != nil }).count {
                    // Fewer answers than requests: a daemon that is gone (a crash) is the
                    // coordinator's to judge; one still running broke the half-close promise.
                    usleep(100_000)
                    if (try? RawConnection(path: socketPath, receiveTimeout: 1)) == nil {
                        interrupted = true
                        shared.state.withLock { $0.unexpectedCloses.append(description) }
                        unreachable = true
                        shared.abortRound()
                    }
                }
                judge(step, description, answers, interrupted: interrupted)
            case .hang:
                reportHang(step, description)
                judge(step, description, answers, interrupted: true)
            case .aborted:
                judge(step, description, answers, interrupted: true)
            }
            return
        }
    }

    /// The daemon closed the connection: expected when the fuzzer restarted it meanwhile or the
    /// step sent a line over the limit; otherwise the coordinator judges it at the round's end
    /// (a crash, or a connection dropped by a running daemon).
    private func connectionLost(_ step: Step, _ description: String, since sentAt: Int) {
        connection = nil
        let (now, restarting) = epoch
        if now != sentAt || restarting {
            waitUntilUp()
            return
        }
        if step.mayClose { return }
        shared.state.withLock { $0.unexpectedCloses.append(description) }
        // Another connection tells whether the daemon is still there.
        if (try? RawConnection(path: socketPath, receiveTimeout: 1)) == nil {
            usleep(200_000)
            if (try? RawConnection(path: socketPath, receiveTimeout: 1)) == nil {
                unreachable = true
                shared.abortRound()
            }
        }
    }

    private func noteSlow(_ step: Step, _ description: String, _ seconds: Double) {
        shared.record(
            Finding(
                kind: .slow, signature: signature("slow", step.label),
                detail: "\(description)\n  answered after \(Int(seconds)) s (no failure: a hang is no answer in \(Int(shared.settings.hangSeconds)) s)"))
    }

    private func reportHang(_ step: Step, _ description: String) {
        // One report per hang: the first worker to give up reports it (with everything in
        // flight), the others then end their round.
        let first = shared.state.withLock { state -> Bool in
            defer { state.abortRound = true }
            return !state.abortRound
        }
        guard first else { return }
        let probe: String
        if let other = try? RawConnection(path: socketPath, receiveTimeout: 5),
            (try? other.send(#"{"jsonrpc":"2.0","id":"probe","method":"daemon.ping"}"# + "\n")) != nil,
            let answer = try? other.readLine()
        {
            probe = "daemon.ping on another connection answered: \(excerpt(answer, limit: 120))"
        } else {
            probe = "daemon.ping on another connection got no answer in 5 s either"
        }
        var devices: [String] = []
        for device in step.requests.compactMap(\.device) where !devices.contains(device) { devices.append(device) }
        let histories = devices.prefix(3).map { device in
            "  the last requests to device \(device):\n\(shared.history(of: device))\n  how \(device) was created, last:\n\(shared.creations(of: device))"
        }
        shared.record(
            Finding(
                kind: .hang, signature: signature("hang", step.label),
                detail: """
                    \(description)
                      no answer in \(Int(shared.settings.hangSeconds)) s; \(probe)
                      requests waiting for an answer, oldest first (the oldest is the likely culprit):
                    \(shared.inFlightReport())
                    \(histories.joined(separator: "\n"))
                    """))
    }

    // MARK: judging answers

    private enum Outcome {
        case result
        case error(Int)
    }

    /// Checks every answer line of a step and applies its tracked writes to the model.
    private func judge(_ step: Step, _ description: String, _ answers: [[UInt8]], interrupted: Bool) {
        var outcomes: [JSONValue: Outcome] = [:]
        // A line the daemon could not parse (or that was over the limit) is answered once, with id null.
        var lineRefused = false
        func bad(_ what: String, _ answer: [UInt8]) {
            shared.record(
                Finding(
                    kind: .badResponse, signature: signature("bad", what, step.label),
                    detail: "\(description)\n  \(what)\n      <-- \(excerpt(answer))"))
        }
        for answer in answers {
            let value: JSONValue
            do {
                value = try ResponseParser.parse(answer)
            } catch {
                bad("the answer is not JSON: \(error)", answer)
                continue
            }
            let objects = value.arrayValue ?? [value]
            if value.arrayValue != nil, objects.isEmpty { bad("an empty array was sent as an answer", answer) }
            for object in objects {
                guard object.objectValue != nil else {
                    bad("an answer that is not an object", answer)
                    continue
                }
                if object["id"] == nil, object["method"] != nil { continue }
                if object["jsonrpc"] != "2.0" { bad("an answer without \"jsonrpc\":\"2.0\"", answer) }
                let id = object["id"] ?? .null
                if let error = object["error"] {
                    let code = error["code"]?.intValue ?? 0
                    errorCodes[code, default: 0] += 1
                    if code == -32700 || code == -32004 { lineRefused = true }
                    outcomes[id] = .error(code)
                    if code == -32603 {
                        let request = step.requests.first { $0.id == id }
                        let label = request?.label ?? step.label
                        let message = error["message"]?.stringValue ?? ""
                        shared.record(
                            Finding(
                                kind: .internalError, signature: signature("-32603", label, String(message.prefix(80))),
                                detail: "\(description)\n  request: \(label)\n      <-- \(excerpt(answer, limit: 600))"))
                    } else if !documentedCodes.contains(code) {
                        bad("an error code the protocol does not list: \(code)", answer)
                    }
                } else if object["result"] != nil {
                    outcomes[id] = .result
                } else {
                    bad("an answer with neither result nor error", answer)
                }
            }
        }
        for request in step.requests {
            let outcome = request.id.flatMap { outcomes[$0] }
            if let tracked = request.tracked { apply(tracked, outcome) }
            if let name = request.invalidDeviceName, case .result? = outcome {
                shared.record(
                    Finding(
                        kind: .invalidNameAccepted, signature: signature("name", name),
                        detail: "\(description)\n  device.create accepted the name \(excerpt(String(reflecting: name))), which the rules refuse"))
            }
            if let id = request.id, outcome == nil, !interrupted, !step.mayClose, !lineRefused {
                bad("no answer with the id \(id) (\(request.label))", answers.last ?? [])
            }
        }
    }

    private func apply(_ tracked: TrackedWrite, _ outcome: Outcome?) {
        let key = ModelKey(suite: tracked.suite, key: tracked.key)
        let expected: Expected = tracked.value.map { tracked.predictable ? .value($0) : .anything } ?? (tracked.predictable ? .absent : .anything)
        var candidates = model[key] ?? [.absent]
        let what: String
        switch outcome {
        case .result?:
            candidates = [expected]
            what = "acknowledged"
        case .error(let code)? where code != -32603:
            what = "refused (\(code))"
        case .error?:
            candidates.append(expected)
            what = "-32603: may or may not have happened"
        case nil:
            candidates.append(expected)
            what = "not answered (notification or connection lost): may or may not have happened"
        }
        if candidates.count > 8 { candidates = [.anything] }
        model[key] = candidates
        let written =
            tracked.value.map { "set " + excerpt(wireText($0), limit: 120) }
            ?? (tracked.predictable ? "remove" : "set (a value whose stored form the fuzzer cannot predict)")
        writeLog[key, default: []].append("round \(round) step \(stepNumber): \(written): \(what)")
        if writeLog[key]!.count > 8 { writeLog[key]!.removeFirst() }
    }
}

/// `value` as JSON text (for reports).
func wireText(_ value: JSONValue) -> String {
    (try? JSONWire.encodeString(value)) ?? "\(value)"
}
