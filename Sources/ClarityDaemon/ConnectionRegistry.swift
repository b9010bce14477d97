import Foundation

/// The open connections: numbers each new one, keeps it alive while it is open, and counts them
/// for `daemon.status`. A connection that closes frees a descriptor, which the listener may be
/// waiting for (``AcceptWakeup``).
final class ConnectionRegistry: Sendable {
    private struct State {
        var nextID = 1
        var open: [Int: Connection] = [:]
    }

    private let state = Protected(State())
    private let maxLineBytes: Int
    private let loops: EventLoops
    private let lanes: DeviceLanes
    private let inputBudget: ByteBudget
    /// All connections' answers waiting unsent.
    let outputBudget = ByteBudget(limit: ConnectionRegistry.maxUnsentOutputBytes)

    /// The cap on bytes held of request lines received and not yet answered — in practice,
    /// unfinished lines — across all connections: room for 64 clients each halfway through a
    /// line of the default limit (1 MiB), far more than local clients sending whole lines ever
    /// hold, while a few hundred stalled clients can no longer hold a gigabyte. Raised to one
    /// line plus one read when `maxRequestBytes` is so large that one client alone could not
    /// otherwise send a whole line. A connection that would pass it is refused (-32004).
    static let maxPendingInputBytes = 64 * 1024 * 1024

    /// The bytes of answers waiting unsent, across all connections, beyond which a connection
    /// with answers unsent answers nothing more until they are delivered (as it does past
    /// ``Connection/outputHighWater`` on its own): clients that do not read then hold one answer
    /// each, not 4 MiB each.
    static let maxUnsentOutputBytes = 64 * 1024 * 1024
    private let log: Logger
    private let acceptWakeup: AcceptWakeup

    init(maxLineBytes: Int, loops: EventLoops, lanes: DeviceLanes, acceptWakeup: AcceptWakeup, log: Logger) {
        self.lanes = lanes
        self.maxLineBytes = maxLineBytes
        self.loops = loops
        self.acceptWakeup = acceptWakeup
        self.log = log
        inputBudget = ByteBudget(limit: max(Self.maxPendingInputBytes, maxLineBytes + EventLoop.readSize))
    }

    var count: Int { state.withLock { $0.open.count } }

    /// Waits until no connection has a request running or an answer unsent (each loop looks at
    /// its own), at most `timeout` seconds: at shutdown, so that what was answered reaches its
    /// client before the process exits. False when some had not by then.
    func waitUntilAnswered(timeout: Double) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while true {
            let quiet = loops.loops.allSatisfy { loop in
                let answer = Protected(false)
                let looked = DispatchSemaphore(value: 0)
                loop.post {
                    answer.withLock { $0 = loop.isQuiet }
                    looked.signal()
                }
                return looked.wait(timeout: deadline) == .success && answer.withLock { $0 }
            }
            if quiet { return true }
            guard DispatchTime.now() < deadline else { return false }
            usleep(5_000)
        }
    }

    /// Starts serving an accepted, checked client.
    func open(descriptor: Int32, peer: PeerCredentials, dispatcher: RequestDispatcher) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let connection = Connection(
            id: id, descriptor: descriptor, maxLineBytes: maxLineBytes, loop: loops.loop(for: id), lanes: lanes,
            dispatcher: dispatcher, inputBudget: inputBudget, outputBudget: outputBudget, log: log,
            onClosed: { [self] id in
                state.withLock { _ = $0.open.removeValue(forKey: id) }
                acceptWakeup.descriptorFreed()
            })
        state.withLock { $0.open[id] = connection }
        log.debug("connection \(id) opened (\(peer))")
        connection.start()
    }
}
