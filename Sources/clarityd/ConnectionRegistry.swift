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
    private let lanes = WorkLanes()
    private let inputBudget: InputBudget
    private let log: Logger
    private let acceptWakeup: AcceptWakeup

    init(maxLineBytes: Int, loops: EventLoops, acceptWakeup: AcceptWakeup, log: Logger) {
        self.maxLineBytes = maxLineBytes
        self.loops = loops
        self.acceptWakeup = acceptWakeup
        self.log = log
        inputBudget = InputBudget(maxLineBytes: maxLineBytes)
    }

    var count: Int { state.withLock { $0.open.count } }

    /// Starts serving an accepted, checked client.
    func open(descriptor: Int32, peer: PeerCredentials, dispatcher: RequestDispatcher) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let connection = Connection(
            id: id, descriptor: descriptor, maxLineBytes: maxLineBytes, loop: loops.loop(for: id), lanes: lanes,
            dispatcher: dispatcher, inputBudget: inputBudget, log: log,
            onClosed: { [self] id in
                state.withLock { _ = $0.open.removeValue(forKey: id) }
                acceptWakeup.descriptorFreed()
            })
        state.withLock { $0.open[id] = connection }
        log.debug("connection \(id) opened (\(peer))")
        connection.start()
    }
}
