import ControlProtocol
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `scenario.explore` that can be stopped from elsewhere. It runs on a connection of its
/// own, whose number it asks first (`daemon.status`'s `connection`): request ids are each
/// connection's own, and the pair names the exploration for `scenario.cancel`. Once it started
/// (the daemon's first `scenario.progress`, sent as the scenario was taken and a thread began
/// it) it says on stderr which request it is and the command that cancels it, for another
/// terminal or a CI step. Ctrl-C cancels it the same way, from a second connection — the
/// exploring one reads nothing more until its answer —, so the daemon still answers with what
/// it found (`stoppedBy: "cancelled"`) and `explore` can show it.
final class ExplorationCall {
    private let client: ClarityClient
    private let socketPath: String
    /// This connection's number, as the daemon counts them; nil from a clarityd older than
    /// this clarityctl (its `daemon.status` has no `connection`): the exploration still runs,
    /// and is cancelled by its id alone.
    let connection: Int?
    /// The exploration's request id.
    let requestID: Int

    /// Connects to `session`'s daemon and learns the connection's number. Waits for the answer
    /// as long as it takes unless `--timeout` was given (``Session/longCallTimeout``).
    init(in session: Session) throws {
        socketPath = session.options.socketPath
        client = try ClarityClient(socketPath: socketPath, idleTimeout: session.longCallTimeout)
        let status = try client.call(Method.daemonStatus.rawValue, params: nil)
        connection = status["connection"]?.intValue
        requestID = client.nextID
    }

    /// The command, ready to paste, that cancels this exploration.
    var cancelCommand: String {
        ShellWords.line(
            ["clarityctl", "--socket", socketPath, "cancel", String(requestID)]
                + (connection.map { ["--connection", String($0)] } ?? []))
    }

    /// Explores with `params` (which ask for `progress`), saying on stderr once it started how to
    /// cancel it; notifications go to `notified`. Returns the report and whether Ctrl-C stopped it.
    func run(_ params: JSONValue, label: String, notified: @escaping (_ method: String, _ params: JSONValue) -> Void)
        throws -> (report: JSONValue, interrupted: Bool)
    {
        let answered = Flag()
        let (socketPath, id, connection, cancelCommand) = (socketPath, requestID, connection, cancelCommand)
        return try InterruptSignal.whileTaken(first: {
            Self.say("\(label): interrupted: cancelling request \(id)\(Self.on(connection)) (Ctrl-C again quits without the summary)")
            Self.cancel(id: id, on: connection, socketPath: socketPath, unless: answered, label: label)
        }) { signal in
            defer { answered.set() }
            var started = false
            let report = try client.call(Method.scenarioExplore.rawValue, params: params) { method, params in
                if !started, method == ServerNotification.scenarioProgress.rawValue {
                    started = true
                    Self.say("\(label): started as request \(id)\(Self.on(connection)); to stop it: \(cancelCommand)")
                }
                notified(method, params)
            }
            return (report, signal.wasReceived)
        }
    }

    /// How often a cancel that found nothing to cancel is tried again, and how long apart: a
    /// Ctrl-C before the exploration started may come before its request reached the daemon.
    static let cancelAttempts = 250
    static let cancelRetryMicroseconds: useconds_t = 20_000

    /// `scenario.cancel` of request `id` on `connection`, from a connection of its own, until it
    /// cancelled, `answered` is set, or the daemon cannot be reached; says on stderr why not.
    private static func cancel(id: Int, on connection: Int?, socketPath: String, unless answered: Flag, label: String) {
        var members: [String: JSONValue] = ["id": .int(id)]
        members["connection"] = connection.map(JSONValue.int)
        let params = JSONValue.object(members)
        for _ in 0..<cancelAttempts {
            if answered.isSet { return }
            do {
                let result = try ClarityClient(socketPath: socketPath, idleTimeout: 10)
                    .call(Method.scenarioCancel.rawValue, params: params)
                if result["cancelled"] == true { return }
            } catch {
                if !answered.isSet { say("\(label): could not cancel (\(error)); Ctrl-C again quits") }
                return
            }
            usleep(cancelRetryMicroseconds)
        }
        say("\(label): the daemon ran no request \(id)\(on(connection)) to cancel; Ctrl-C again quits")
    }

    /// " on connection N", or nothing when the daemon did not say which.
    private static func on(_ connection: Int?) -> String {
        connection.map { " on connection \($0)" } ?? ""
    }

    private static func say(_ line: String) {
        ProgressLine.note(line)
    }

    /// Set once, read from another thread.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)

        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }
}
