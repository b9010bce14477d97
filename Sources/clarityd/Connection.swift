import ControlProtocol
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client of the control socket, served by an ``EventLoop``.
///
/// The loop reads the client's bytes into a ``LineBuffer`` and the lines are answered one at a
/// time, in order. A line the dispatcher can answer at once (`daemon.*`, a parse error, an
/// invalid request) is answered right there; one that may wait for a device goes to that
/// device's ``WorkLanes`` lane, and until its answer comes back the connection reads nothing
/// more — so answers keep the order of the requests, and a client blocks only on its own
/// device while the loop goes on serving the others. Answers collect in an output buffer that
/// is sent after each read, which coalesces the answers to a pipelined burst into one `send`;
/// whatever the socket does not take waits for the loop to see it writable. A client that stalls
/// — half a line, or never reading — holds nothing but its own buffers. Once more than
/// ``outputHighWater`` bytes wait unsent, reading pauses until they drain, so such a client
/// cannot grow the daemon without bound.
///
/// An answer that reports a durable change goes out only once its journal line is synced
/// (``DurabilityWaits``); the lane meanwhile serves the device's next request, so concurrent
/// clients share one sync.
///
/// A line over the limit is answered -32004 and the connection closes once that is delivered;
/// at end of input a final unterminated line is still answered.
///
/// `@unchecked Sendable`: all mutable state is confined to the loop's thread; lanes reach it
/// only through ``EventLoop/post(_:)``.
final class Connection: @unchecked Sendable {
    let id: Int
    let descriptor: Int32
    private let loop: EventLoop
    private let lanes: WorkLanes
    private let dispatcher: RequestDispatcher
    private let log: Logger
    private let onClosed: @Sendable (Int) -> Void

    private var lines: LineBuffer
    private var output: [UInt8] = []
    private var sentBytes = 0
    private var afterDelivery: [@Sendable () -> Void] = []
    /// A request is being answered on a lane; lines after it wait.
    private var awaitingLane = false
    /// The client sent end of input.
    private var inputEnded = false
    private var closeWhenDelivered = false
    /// Over ``outputHighWater`` bytes waited unsent: reading waits until they are all delivered.
    private var outputBacklogged = false
    private(set) var isClosed = false

    /// Unsent bytes beyond which the connection stops reading requests.
    static let outputHighWater = 4 * 1024 * 1024

    init(
        id: Int, descriptor: Int32, maxLineBytes: Int, loop: EventLoop, lanes: WorkLanes, dispatcher: RequestDispatcher,
        log: Logger, onClosed: @escaping @Sendable (Int) -> Void
    ) {
        self.id = id
        self.descriptor = descriptor
        self.loop = loop
        self.lanes = lanes
        self.dispatcher = dispatcher
        self.log = log
        self.onClosed = onClosed
        lines = LineBuffer(maxLineBytes: maxLineBytes)
    }

    /// Hands the connection to its loop.
    func start() {
        loop.post { [self] in loop.adopt(self) }
    }

    private var unsentBytes: Int { output.count - sentBytes }

    /// What the loop should wait for: input while the connection takes requests, writability
    /// while answers wait unsent; 0 for nothing (the loop then leaves it out of `poll`).
    var pollEvents: Int16 {
        guard !isClosed else { return 0 }
        var events: Int16 = 0
        if !awaitingLane && !inputEnded && !closeWhenDelivered && !outputBacklogged {
            events |= Int16(POLLIN)
        }
        if unsentBytes > 0 { events |= Int16(POLLOUT) }
        return events
    }

    func handle(revents: Int16) {
        guard !isClosed else { return }
        let events = pollEvents
        let failed = revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
        if events & Int16(POLLIN) != 0, revents & Int16(POLLIN) != 0 || failed {
            readAvailable()
        }
        if !isClosed, unsentBytes > 0, revents & Int16(POLLOUT) != 0 || failed {
            deliver()
        }
    }

    /// One read per wake-up (the loop comes back while more is ready), so a busy client
    /// yields to the others.
    private func readAvailable() {
        let buffer = loop.readBuffer
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        if count > 0 {
            lines.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        } else if count == 0 {
            inputEnded = true
        } else if errno == EINTR || SystemCall.wouldBlock {
            return
        } else {
            log.debug("connection \(id): \(SystemCallError("read"))")
            hangUp()
            return
        }
        answerLines()
        deliver()
    }

    /// Answers the complete lines received, in order, until one has to wait for a lane.
    private func answerLines() {
        while !awaitingLane && !closeWhenDelivered && !isClosed {
            let pulled = lines.next { line in answer(line) }
            switch pulled {
            case .line: continue
            case .tooLarge:
                log.log(
                    .warning, about: "connection \(id)", kind: "line too large",
                    "request line over \(lines.maxLineBytes) bytes; closing it")
                output.append(contentsOf: dispatcher.errorLine(.requestTooLarge(limit: lines.maxLineBytes)))
                closeWhenDelivered = true
            case .needMore:
                guard inputEnded else { return }
                // End of input: a final unterminated line is still answered, then the connection closes.
                if lines.pendingByteCount > 0 && !lines.overflowed {
                    lines.append([UInt8(ascii: "\n")])
                } else {
                    closeWhenDelivered = true
                }
            }
        }
    }

    private func answer(_ line: UnsafeRawBufferPointer) {
        let message = dispatcher.parse(line)
        let lane: String?
        switch dispatcher.placement(of: message) {
        case .inline:
            afterDelivery.append(contentsOf: dispatcher.respond(to: message, connection: id, into: &output))
            return
        case .device(let name): lane = name
        case .anywhere: lane = nil
        }
        awaitingLane = true
        let (dispatcher, id, loop) = (dispatcher, id, loop)
        lanes.run(on: lane) { [self] in
            var bytes: [UInt8] = []
            let waits = DurabilityWaits()
            let actions = dispatcher.respond(to: message, connection: id, waits: waits, into: &bytes)
            let answer = bytes
            waits.whenDurable { [self] in loop.post { [self] in laneAnswered(answer, actions) } }
        }
    }

    private func laneAnswered(_ answer: [UInt8], _ actions: [@Sendable () -> Void]) {
        awaitingLane = false
        guard !isClosed else {
            // The client left meanwhile; what its request asked for still happens.
            for action in actions { action() }
            return
        }
        output.append(contentsOf: answer)
        afterDelivery.append(contentsOf: actions)
        answerLines()
        deliver()
    }

    /// Sends what is buffered; whatever the socket doesn't take now waits for `POLLOUT`.
    private func deliver() {
        guard !isClosed else { return }
        while sentBytes < output.count {
            let count = output.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + sentBytes, bytes.count - sentBytes, SystemCall.sendFlags)
            }
            if count >= 0 {
                sentBytes += count
            } else if errno == EINTR {
                continue
            } else if SystemCall.wouldBlock {
                if unsentBytes > Self.outputHighWater { outputBacklogged = true }
                return
            } else {
                log.debug("connection \(id): client went away: \(SystemCallError("send"))")
                hangUp()
                return
            }
        }
        if output.count > Self.outputHighWater {
            output = []
        } else {
            output.removeAll(keepingCapacity: true)
        }
        sentBytes = 0
        outputBacklogged = false
        runAfterDelivery()
        if closeWhenDelivered { hangUp() }
    }

    private func runAfterDelivery() {
        guard !afterDelivery.isEmpty else { return }
        let actions = afterDelivery
        afterDelivery.removeAll()
        for action in actions { action() }
    }

    /// Closes the connection. Actions waiting for delivery still run: a client that asked for
    /// shutdown and left still gets it.
    private func hangUp() {
        guard !isClosed else { return }
        isClosed = true
        runAfterDelivery()
        close(descriptor)
        log.debug("connection \(id) closed")
        log.forget("connection \(id)")
        onClosed(id)
    }
}
