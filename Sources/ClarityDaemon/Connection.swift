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
/// device's ``DeviceLanes`` lane, and until its answer comes back the connection reads nothing
/// more — so answers keep the order of the requests, and a client blocks only on its own
/// device while the loop goes on serving the others. Answers collect in an output buffer that
/// is sent after each read, which coalesces the answers to a pipelined burst into one `send`;
/// whatever the socket does not take waits for the loop to see it writable.
///
/// What a client can make the daemon hold is bounded (docs/protocol.md, Transport and framing):
/// - answers: once more than ``outputHighWater`` bytes wait unsent, the connection answers
///   nothing more — not even lines already received — and reads nothing, until they are all
///   delivered; a client that never reads holds that much plus the answer that crossed it.
///   Across all clients, once unsent answers pass
///   ``ConnectionRegistry/maxUnsentOutputBytes``, any connection with answers unsent stops so;
/// - requests: one at a time on a lane, and lines received are read no further than one read
///   past what is being answered, so the ``LineBuffer`` holds at most one line plus one read;
/// - unfinished lines, across all clients: ``ConnectionRegistry/maxPendingInputBytes`` — a
///   connection that would take them past it is answered -32004 and closed;
/// - time: a connection that has sent part of a line and then nothing for
///   ``partialLineTimeout`` seconds, while the daemon waited for it, is closed (logged at info).
///
/// An answer that reports a durable change goes out only once its journal line is synced
/// (``DurabilityWaits``); the lane meanwhile serves the device's next request, so concurrent
/// clients share one sync.
///
/// A line over the limit is answered -32004 and the connection closes once that is delivered;
/// at end of input a final unterminated line is still answered.
///
/// Notifications of the connection's subscriptions (``ConnectionSubscriptions``) go out between
/// answers, never inside one: they are taken from the subscriptions' buffers only once
/// everything before them has been sent, so what a client does not read waits there, bounded,
/// and not in the output.
///
/// All mutable state is confined to the loop's thread, checked on entry in debug builds
/// (``EventLoop/thread``); lanes reach it only through ``EventLoop/post(_:)``.
// unchecked: loop-confined state, checked by `loop.thread` in debug builds.
final class Connection: @unchecked Sendable {
    let id: Int
    let descriptor: Int32
    private let loop: EventLoop
    private let lanes: DeviceLanes
    private let dispatcher: RequestDispatcher
    private let log: Logger
    private let inputBudget: ByteBudget
    private let outputBudget: ByteBudget
    private let onClosed: @Sendable (Int) -> Void
    private let subscriptions: ConnectionSubscriptions
    /// How log lines name this connection (throttled per subject, see ``Logger``).
    private let subject: String

    // Exempt from run-time exclusivity checks, which cost every request: confined to the loop's
    // thread and touched only in this file (docs/performance.md, "Connection: loop-confined state unchecked").
    @exclusivity(unchecked) private var lines: LineBuffer
    @exclusivity(unchecked) private var output: [UInt8] = []
    private var sentBytes = 0
    @exclusivity(unchecked) private var afterDelivery: [@Sendable () -> Void] = []
    /// A request is being answered on a lane; lines after it wait.
    private var awaitingLane = false
    /// Whether the answer to the request on a lane is still wanted: cancelled when the client
    /// hangs up meanwhile.
    private var pending: RequestCancellation?
    /// The client closed its end while a request was on a lane (`POLLHUP`): its long work was
    /// cancelled, and the connection is no longer polled until that request comes back.
    private var hungUp = false
    /// The cancellation of every request answered at once on the loop: such a request never
    /// waits, so nothing listens to it, and one per line would cost a lock per request. Cancelled
    /// when the connection closes, as a lane request's is when its client hangs up.
    private let inlineCancellation = RequestCancellation()
    /// Who sends the requests answered at once: the same for each of them.
    private let inlineCaller: Caller
    /// Where the connection's requests that run on no device's lane go (batches, `device.list`,
    /// scenarios waiting for a thread): a serial queue of its own, so that a busy global pool never
    /// starves them (docs/performance.md, "Connection: its own queue for batches and device.list").
    private let ownQueue: DispatchQueue
    /// The client sent end of input.
    private var inputEnded = false
    private var closeWhenDelivered = false
    /// Over ``outputHighWater`` bytes waited unsent: answering and reading wait until they are
    /// all delivered.
    private var outputBacklogged = false
    /// Bytes of ``lines`` charged to ``inputBudget``.
    private var chargedInput = 0
    /// Unsent bytes of ``output`` charged to ``outputBudget``.
    private var chargedOutput = 0
    /// Since when (monotonic nanoseconds) the connection has waited for its client: the last
    /// bytes received, or the daemon's last turn answering it.
    private var waitingSince: UInt64
    private(set) var isClosed = false

    /// Unsent bytes beyond which the connection stops answering and reading requests.
    static let outputHighWater = 4 * 1024 * 1024

    /// Seconds a connection may hold part of a line with nothing more coming before it is
    /// closed. Clients write whole lines at once, so on a local socket a line left unfinished
    /// for 10 s belongs to a client that is stuck or gone (a slow one that still sends, even a
    /// byte a second, is not cut off); until then the bytes it holds count against
    /// ``ConnectionRegistry/maxPendingInputBytes``, so the shorter this is, the sooner stalled
    /// clients give their share back.
    static let partialLineTimeout = 10

    init(
        id: Int, descriptor: Int32, maxLineBytes: Int, loop: EventLoop, lanes: DeviceLanes, dispatcher: RequestDispatcher,
        inputBudget: ByteBudget, outputBudget: ByteBudget, log: Logger, onClosed: @escaping @Sendable (Int) -> Void
    ) {
        self.id = id
        self.descriptor = descriptor
        self.loop = loop
        self.lanes = lanes
        self.dispatcher = dispatcher
        self.inputBudget = inputBudget
        self.outputBudget = outputBudget
        self.log = log
        self.onClosed = onClosed
        subscriptions = ConnectionSubscriptions(budget: outputBudget)
        inlineCaller = Caller(connection: id, subscriptions: subscriptions, waits: nil, cancellation: inlineCancellation)
        subject = "connection \(id)"
        ownQueue = DispatchQueue(label: "clarityd.connection.\(id)")
        lines = LineBuffer(maxLineBytes: maxLineBytes)
        waitingSince = EventLoop.now()
    }

    /// Hands the connection to its loop.
    func start() {
        let loop = loop
        // Held strongly, as a weak reference slows every request; hangUp's closeAll() lets go of
        // it (docs/performance.md, "Connection: subscriptions hold it strongly").
        subscriptions.setWake { [self] in
            loop.post(for: self) {
                self.subscriptionsWoke = true
                self.sendNotifications()
            }
        }
        loop.post { [self] in loop.adopt(self) }
    }

    private var unsentBytes: Int { output.count - sentBytes }

    /// Nothing running for the client and nothing unsent (or the connection closed).
    var isQuiet: Bool { isClosed || (!awaitingLane && unsentBytes == 0) }

    /// Whether the loop should poll the connection even with no ``pollEvents``: while a request
    /// is on a lane, to see the client hang up (`poll` reports `POLLHUP` unasked), which cancels
    /// the request's long work. A Unix socket reports it only once the client closed both
    /// directions: a client that half-closed and waits for its answers is not taken for gone.
    var watchesHangUp: Bool { awaitingLane && !hungUp && !isClosed }

    /// What the loop waits for on the connection's behalf (``Readiness``): ``pollEvents``, or 0
    /// to see only its client hang up; nil for nothing.
    var awaitedEvents: Int16? {
        let events = pollEvents
        return events != 0 || watchesHangUp ? events : nil
    }

    /// Whether the loop has noted the connection, to look again at what it waits for at the end
    /// of the round. Loop-confined.
    var awaitsWatchUpdate = false
    /// Whether the loop counts the connection among those holding part of a line (it had a
    /// ``partialLineDeadline`` when last looked at). Loop-confined.
    var holdsPartialLine = false

    /// What the loop should wait for: input while the connection takes requests, writability
    /// while answers wait unsent; 0 for nothing (the loop then stops watching it, unless it
    /// ``watchesHangUp``).
    var pollEvents: Int16 {
        guard !isClosed else { return 0 }
        var events: Int16 = 0
        if !awaitingLane && !inputEnded && !closeWhenDelivered && !outputBacklogged {
            events |= Int16(POLLIN)
        }
        if unsentBytes > 0 { events |= Int16(POLLOUT) }
        return events
    }

    /// When (monotonic nanoseconds) the connection gives up on its client's unfinished line;
    /// nil while it holds none or waits for something else than the client's next bytes.
    var partialLineDeadline: UInt64? {
        guard !isClosed, !awaitingLane, !inputEnded, !closeWhenDelivered, !outputBacklogged,
            lines.pendingByteCount > 0
        else { return nil }
        return waitingSince + UInt64(Self.partialLineTimeout) * 1_000_000_000
    }

    /// Closes the connection if its client left a line unfinished past the deadline.
    func closeIfStalled(now: UInt64) {
        loop.thread.check()
        guard let deadline = partialLineDeadline, now >= deadline else { return }
        log.info(
            "\(subject): sent \(lines.pendingByteCount) bytes of a line, then nothing for \(Self.partialLineTimeout) s; closing it")
        hangUp()
    }

    func handle(revents: Int16) {
        loop.thread.check()
        guard !isClosed else { return }
        let events = pollEvents
        let failed = revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
        if failed, awaitingLane, !hungUp {
            hungUp = true
            if let pending, !pending.isCancelled {
                log.debug("\(subject): the client hung up while its request ran; cancelling what is long in it")
                pending.cancel(.cancelled)
            }
        }
        if events & Int16(POLLIN) != 0, revents & Int16(POLLIN) != 0 || failed {
            readAvailable()
        }
        if !isClosed, unsentBytes > 0, revents & Int16(POLLOUT) != 0 || failed {
            if deliver() { serve() } else { sendNotifications() }
            chargeOutput()
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
            log.debug("\(subject): \(SystemCallError("read"))")
            hangUp()
            return
        }
        serve()
    }

    /// Answers what it can and sends it, again as long as answering stopped only for answers
    /// that have all gone out since; then charges what is left of the input.
    private func serve() {
        repeat {
            answerLines()
        } while deliver() && !isClosed
        guard !isClosed else { return }
        sendNotifications()
        chargeInput()
        chargeOutput()
        waitingSince = loop.wokeAt
    }

    /// Takes the notifications the subscriptions buffered and sends them, once everything before
    /// them has gone out (else the next complete delivery comes back here).
    private func sendNotifications() {
        guard subscriptionsWoke, !isClosed, !closeWhenDelivered, unsentBytes == 0 else { return }
        if subscriptions.take(into: &output) { deliver() }
        chargeOutput()
    }

    /// Answers the complete lines received, in order, until one has to wait for a lane or
    /// answers wait unsent: over ``outputHighWater`` of them, or any while all clients' unsent
    /// answers are over ``ConnectionRegistry/maxUnsentOutputBytes``. That shared cap is read
    /// once a call (it takes a lock): the lines of one read are answered against one reading
    /// of it, so it is overshot by at most the answers given at once to one read's lines.
    private func answerLines() {
        var overShared: Bool?
        func sharedCapExceeded() -> Bool {
            if let overShared { return overShared }
            let exceeded = outputBudget.isExceeded
            overShared = exceeded
            return exceeded
        }
        while !awaitingLane && !closeWhenDelivered && !isClosed {
            if unsentBytes > Self.outputHighWater || (unsentBytes > 0 && sharedCapExceeded()) {
                if !outputBacklogged {
                    let cause =
                        unsentBytes > Self.outputHighWater
                        ? "" : " while all clients' unsent answers are over \(outputBudget.limit) bytes"
                    log.log(
                        .debug, about: subject, kind: "answers unsent",
                        "\(unsentBytes) bytes of answers wait unsent\(cause); its next requests wait until it reads")
                }
                outputBacklogged = true
                chargeOutput()
                return
            }
            let pulled = lines.next { line in answer(line) }
            switch pulled {
            case .line: continue
            case .tooLarge:
                log.log(
                    .warning, about: subject, kind: "line too large",
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

    /// Charges what ``lines`` holds now to the ``inputBudget``; past its limit, the connection
    /// is refused.
    private func chargeInput() {
        let held = closeWhenDelivered ? 0 : lines.pendingByteCount
        guard held != chargedInput else { return }
        if inputBudget.recharge(from: chargedInput, to: held) {
            chargedInput = held
            return
        }
        log.log(
            .warning, about: subject, kind: "input over the limit",
            "\(held) bytes of unfinished request lines would take all clients' past \(inputBudget.limit) bytes; closing it")
        lines = LineBuffer(maxLineBytes: lines.maxLineBytes)
        releaseInput()
        output.append(contentsOf: dispatcher.errorLine(.pendingInputOverLimit(limit: inputBudget.limit)))
        closeWhenDelivered = true
        _ = deliver()
    }

    private func releaseInput() {
        guard chargedInput > 0 else { return }
        _ = inputBudget.recharge(from: chargedInput, to: 0)
        chargedInput = 0
    }

    /// Charges the answers waiting unsent to the ``outputBudget``.
    private func chargeOutput() {
        let unsent = isClosed ? 0 : unsentBytes
        outputBudget.charge(from: chargedOutput, to: unsent)
        chargedOutput = unsent
    }

    private func answer(_ line: UnsafeRawBufferPointer) {
        let message = dispatcher.parse(line)
        let placement = message.placement
        if placement == .inline {
            let actions = dispatcher.respond(to: message, caller: inlineCaller, into: &output)
            if !actions.isEmpty { afterDelivery.append(contentsOf: actions) }
            return
        }
        let cancellation = RequestCancellation()
        awaitingLane = true
        pending = cancellation
        if hungUp { cancellation.cancel(.cancelled) }
        let (dispatcher, id, loop, subscriptions) = (dispatcher, id, loop, subscriptions)
        let work: @Sendable () -> Void = { [self] in
            var bytes: [UInt8] = []
            let waits = DurabilityWaits()
            let caller = Caller(connection: id, subscriptions: subscriptions, waits: waits, cancellation: cancellation)
            let actions = dispatcher.respond(to: message, caller: caller, into: &bytes)
            let answer = bytes
            waits.whenDurable { [self] in loop.post(for: self) { [self] in laneAnswered(answer, actions) } }
        }
        if case .device(let name) = placement {
            lanes.run(on: name, work)
        } else {
            ownQueue.async(execute: work)
        }
    }

    private func laneAnswered(_ answer: [UInt8], _ actions: [@Sendable () -> Void]) {
        loop.thread.check()
        awaitingLane = false
        pending = nil
        guard !isClosed else {
            // The client left meanwhile; what its request asked for still happens.
            for action in actions { action() }
            return
        }
        output.append(contentsOf: answer)
        afterDelivery.append(contentsOf: actions)
        serve()
    }

    /// Whether the answers are held for the end of the loop's reading round.
    private var heldForRoundEnd = false
    /// Whether the subscriptions have ever asked for the loop (a notification buffered, a
    /// progress line posted). Each first line after a take asks, so until then there is nothing
    /// to take, and an answer sent skips the subscriptions' lock.
    private var subscriptionsWoke = false

    /// Sends the answers held for the end of the round, and answers what waited on them.
    func sendHeldAnswers() {
        loop.thread.check()
        heldForRoundEnd = false
        guard !isClosed, unsentBytes > 0 else { return }
        if deliver() { serve() } else { sendNotifications() }
        chargeOutput()
    }

    /// Sends what is buffered; whatever the socket doesn't take now waits for `POLLOUT`. True
    /// when it delivered everything after answering had stopped for unsent answers (then the
    /// lines left can be answered now). While the loop reads a round, the answers are held for
    /// its end (``EventLoop/sendAtRoundEnd(_:)``), unless the connection closes once they are out.
    @discardableResult
    private func deliver() -> Bool {
        guard !isClosed else { return false }
        if loop.isReadingRound, !closeWhenDelivered, unsentBytes <= Self.outputHighWater {
            if !heldForRoundEnd {
                heldForRoundEnd = true
                loop.sendAtRoundEnd(self)
            }
            return false
        }
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
                return false
            } else {
                log.debug("\(subject): client went away: \(SystemCallError("send"))")
                hangUp()
                return false
            }
        }
        if output.count > Self.outputHighWater {
            output = []
        } else {
            output.removeAll(keepingCapacity: true)
        }
        sentBytes = 0
        let resumed = outputBacklogged
        outputBacklogged = false
        runAfterDelivery()
        if closeWhenDelivered { hangUp() }
        return resumed && !isClosed
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
        inlineCancellation.cancel(.cancelled)
        subscriptions.closeAll()
        close(descriptor)
        lines = LineBuffer(maxLineBytes: lines.maxLineBytes)
        output = []
        sentBytes = 0
        releaseInput()
        chargeOutput()
        log.debug("\(subject) closed")
        log.forget(subject)
        onClosed(id)
    }
}
