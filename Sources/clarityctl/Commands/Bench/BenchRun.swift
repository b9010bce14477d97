import ControlProtocol
import Foundation

/// `clarityctl bench`: load on the daemon in the manner of redis-benchmark.
///
/// For each method of `-t`, `-c` clients (each its own connection on its own thread) share `-n`
/// requests, `-P` in flight per client. Every response must be a success; errors are counted,
/// shown, and make the exit status 1. The device phases (`event` alternates `lock` and `unlock`,
/// `advance` moves the clock one second, `store` sets a key) run on the `--device` given, else
/// on a device `bench-<pid>` created for the run and removed after it; with `--devices N`, on N
/// devices `bench-<pid>-<i>` created for the run, client `c` sending to device `c mod N` — how
/// events on many devices show whether the daemon uses every core (docs/performance.md).
struct BenchRun: ClarityCommand {
    static let help = CommandHelp(
        words: ["bench"],
        synopsis: "[-c CLIENTS] [-n REQUESTS] [-P PIPELINE] [-t ping,event,advance,store] [--devices N] [--redis SOCKET]",
        abstract: "measure throughput and latency",
        details: [
            "  -c CLIENTS    concurrent connections, one thread each (default 50)",
            "  -n REQUESTS   total requests per method (default 100000)",
            "  -P PIPELINE   requests sent before reading their responses, per client (default 1)",
            "  -t METHODS    comma-separated: ping (daemon.ping), event (lock/unlock), advance (clock.advance 1 s),",
            "                store (store.set) (default ping,event)",
            "  --devices N   device phases on N devices created for the run, client c on device c mod N",
            "                (default 1; not with --device)",
            "  --redis SOCKET  the same clients send redis's PING to the redis-server on SOCKET instead",
            "                (-t ping, the default with it): clarityd and redis compared through one load generator",
            "Device phases use --device when given, else a device bench-<pid> created for the run.",
        ])

    private static let methodNames = ["ping", "event", "advance", "store"]

    let clients: Int
    let requests: Int
    let pipeline: Int
    let methods: [String]
    /// How many devices the device phases spread over (`--devices`).
    let devices: Int
    /// A redis-server's socket to send `PING` to instead of the daemon (`--redis`).
    let redisSocket: String?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        requests =
            try arguments.value(of: "-n").map { try ArgumentValues.integer($0, for: "-n", minimum: 1) } ?? 100_000
        clients = min(
            requests, try arguments.value(of: "-c").map { try ArgumentValues.integer($0, for: "-c", minimum: 1) } ?? 50)
        pipeline = try arguments.value(of: "-P").map { try ArgumentValues.integer($0, for: "-P", minimum: 1) } ?? 1
        redisSocket = try arguments.value(of: "--redis")
        var methods: [String] = []
        let names = try arguments.value(of: "-t") ?? (redisSocket == nil ? "ping,event" : "ping")
        for name in names.split(separator: ",").map(String.init) {
            let method = try ArgumentValues.choice(name, for: "-t", among: Self.methodNames)
            if !methods.contains(method) { methods.append(method) }
        }
        guard !methods.isEmpty else {
            throw UsageError("-t needs at least one of \(Self.methodNames.joined(separator: ", "))")
        }
        self.methods = methods
        devices =
            try arguments.value(of: "--devices").map { try ArgumentValues.integer($0, for: "--devices", minimum: 1) } ?? 1
        guard devices == 1 || !options.deviceWasGiven else {
            throw UsageError("--devices creates its own devices: give it or --device, not both")
        }
        guard redisSocket == nil || methods == ["ping"] else {
            throw UsageError("--redis measures redis's PING only: give it with -t ping")
        }
    }

    func run(in session: Session) throws {
        var reports: [BenchReport] = []
        for method in methods {
            let report: BenchReport
            if let redisSocket {
                report = try measure([.redisPing(pipeline: pipeline)], socketPath: redisSocket, options: session.options)
            } else if method == "ping" {
                report = try measure([try .ping(pipeline: pipeline)], options: session.options)
            } else {
                report = try withEventDevices(session) { devices in
                    try measure(try devices.map { try workload(method, device: $0) }, options: session.options)
                }
            }
            if !session.options.json { print(report.lines.joined(separator: "\n")) }
            reports.append(report)
        }
        if session.options.json { session.output.showJSON(["results": .array(reports.map(\.json))]) }
        let errors = reports.map(\.errors).reduce(0, +)
        if errors > 0 { throw BenchFailure(message: "bench: \(errors) requests got an error response") }
    }

    /// The workload of a device phase.
    private func workload(_ method: String, device: String) throws -> BenchWorkload {
        switch method {
        case "advance": try .advance(device: device, pipeline: pipeline)
        case "store": try .storeSet(device: device, pipeline: pipeline)
        default: try .lockUnlock(device: device, pipeline: pipeline)
        }
    }

    /// Runs `body` on the `--device` given, else on `--devices` devices created for it (running
    /// the daemon's `defaultApp`) and removed afterwards.
    private func withEventDevices(_ session: Session, _ body: ([String]) throws -> BenchReport) throws -> BenchReport {
        if session.options.deviceWasGiven { return try body([session.options.device]) }
        let prefix = "bench-\(ProcessInfo.processInfo.processIdentifier)"
        let names = devices == 1 ? [prefix] : (0..<devices).map { "\(prefix)-\($0)" }
        var created: [String] = []
        defer {
            for device in created {
                _ = try? session.call(Method.deviceRemove.rawValue, params: ["device": .string(device)])
            }
        }
        for device in names {
            _ = try session.call(Method.deviceCreate.rawValue, params: Self.deviceCreateParams(device: device))
            created.append(device)
        }
        return try body(names)
    }

    /// The params of the device bench creates: its name only, so the daemon picks the app.
    static func deviceCreateParams(device: String) -> JSONValue {
        ["device": .string(device)]
    }

    /// One phase: every client connects (to the daemon, or to `socketPath` when given), then all
    /// start together; the clock runs from the start until the last client finishes. Client `c`
    /// sends `workloads[c mod count]`. Each client waits for an answer at most `--timeout`.
    private func measure(_ workloads: [BenchWorkload], socketPath: String? = nil, options: GlobalOptions) throws
        -> BenchReport
    {
        let socketPath = socketPath ?? options.socketPath
        let tally = BenchTally()
        let connected = DispatchGroup()
        let finished = DispatchGroup()
        let startGate = DispatchSemaphore(value: 0)
        let pipeline = self.pipeline
        for client in 0..<clients {
            let share = requests / clients + (client < requests % clients ? 1 : 0)
            let workload = workloads[client % workloads.count]
            connected.enter()
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                let connection: BenchConnection
                do {
                    connection = try BenchConnection(socketPath: socketPath, idleTimeout: options.timeout)
                } catch {
                    tally.record(failure: error)
                    connected.leave()
                    return
                }
                connected.leave()
                startGate.wait()
                do {
                    tally.record(try connection.run(workload, requests: share, pipeline: pipeline))
                } catch {
                    tally.record(failure: error)
                }
            }
            thread.start()
        }
        connected.wait()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<clients { startGate.signal() }
        finished.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let result = tally.result()
        if let failure = result.failure { throw failure }
        return BenchReport(
            label: workloads[0].label, devices: workloads.count, clients: clients, pipeline: pipeline, latencies: result.outcome.latencies.sorted(),
            seconds: seconds, errors: result.outcome.errors, errorSamples: result.outcome.errorSamples)
    }
}

/// Bench finished, but some responses were errors (exit status 1).
struct BenchFailure: Error {
    let message: String
}
