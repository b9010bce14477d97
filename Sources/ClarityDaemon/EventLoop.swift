import ExtensionSandbox
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One I/O thread serving many connections, as redis does: it waits for those that are ready
/// (``Readiness``: `epoll` on Linux, `poll` elsewhere), reads what their clients sent, answers
/// what it can at once (``RequestDispatcher/Placement/inline``), and writes.
///
/// A round of the loop reads every ready connection first and sends their answers after, as
/// redis writes its replies only before it sleeps again (`handleClientsWithPendingWrites`). Each
/// `send` wakes the client it answers, which then often takes the loop's core from it; sent in
/// the middle of the reads, those wake-ups preempt the loop once per answer, and sent at the
/// end of the round, the clients run while the loop goes back to waiting
/// (docs/performance.md: at 50 clients, 41 preemptions a 100 answers down to 23).
///
/// Doing this on a few threads of our own instead of a dispatch source per connection saves two
/// thread hand-offs per request (dispatch's event thread to a worker, and back to sleep) and lets
/// one wake-up serve every client that is ready — under 50 clients that was most of the daemon's
/// time. Work that may wait for a device never runs here: the connection hands it to a
/// ``DeviceLanes`` lane and is called back on this thread with the answer.
///
/// Other threads talk to the loop only through ``post(_:)``, which queues an action and wakes
/// the wait through a pipe. Everything else is confined to the loop's thread, and checked to be
/// in debug builds (``thread``).
///
/// What a connection waits for changes only when the loop has it do something (read, send, an
/// action posted for it): those connections are noted (``noteChanged(_:)``) and looked at again
/// at the end of the round, so a round costs what happened in it, not how many are connected.
/// The wait ends at the latest at the nearest ``Connection/partialLineDeadline`` of the
/// connections holding part of a line, so a client that stalls halfway through a line is closed
/// on time however quiet the others are.
// unchecked: loop-confined state, checked by `thread` in debug builds; the inbox is locked.
final class EventLoop: @unchecked Sendable {
    let index: Int
    /// The loop's thread, the only one that may touch the loop's and its connections' state.
    let thread: OwningThread
    private let log: Logger
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let inbox = Protected(Inbox())
    /// The loop's connections by descriptor number. Loop-confined, as everything below.
    private var byDescriptor: [Connection?] = []
    private var readiness: Readiness
    /// Exempt from run-time exclusivity checks: the wait fills it, a call the compiler cannot
    /// see into, so each round checked it at run time (docs/performance.md, "Connection: loop-confined state
    /// unchecked").
    @exclusivity(unchecked) private var ready: [Readiness.Ready] = []
    /// Connections the round had do something: what they wait for is looked at again at its end.
    private var changed: [Connection] = []
    /// Connections holding part of a line, by id: the wait ends at the nearest of their deadlines.
    private var holdingPartialLines: [Int: Connection] = [:]
    /// Whether the loop is reading a round's ready connections: their answers wait in
    /// ``answersToSend`` until it is done. Loop-confined.
    private(set) var isReadingRound = false
    /// Connections whose answers wait for the end of the round's reads. Loop-confined.
    private var answersToSend: [Connection] = []
    /// When (monotonic nanoseconds) the loop's wait last returned: the time connections note for their
    /// deadlines, one clock read a round rather than one a request. Loop-confined.
    private(set) var wokeAt = EventLoop.now()
    /// One read buffer for every connection of the loop (they are served one at a time).
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: EventLoop.readSize, alignment: 16)

    /// Bytes a connection reads at most per wake-up.
    static let readSize = 64 * 1024

    /// Monotonic nanoseconds, for deadlines.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private struct Inbox {
        var actions: [@Sendable () -> Void] = []
        var woken = false
    }

    init(index: Int, log: Logger) throws(SystemCallError) {
        self.index = index
        self.log = log
        thread = OwningThread("event loop \(index)")
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemCallError("pipe") }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            try SystemCall.setNonBlocking(fd)
        }
        wakeReader = ends[0]
        wakeWriter = ends[1]
        readiness = try Readiness()
        try readiness.watch(wakeReader, for: Int16(POLLIN))
    }

    func start() {
        let thread = Thread { [self] in
            // Signals go to the main thread and Dispatch, as before there were loops: a
            // process-directed SIGTERM must not land here.
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            SystemCall.nameCurrentThread("clarityd.loop.\(index)")
            run()
        }
        thread.start()
    }

    /// Runs `action` on the loop's thread, soon. Safe from any thread.
    func post(_ action: @escaping @Sendable () -> Void) {
        let wake = inbox.withLock { inbox in
            inbox.actions.append(action)
            defer { inbox.woken = true }
            return !inbox.woken
        }
        guard wake else { return }
        var byte: UInt8 = 1
        while write(wakeWriter, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Whether none of the loop's connections has a request running or an answer unsent. Loop
    /// thread only.
    var isQuiet: Bool {
        thread.check()
        return byDescriptor.allSatisfy { $0?.isQuiet ?? true }
    }

    /// Starts serving `connection` on this loop. Loop thread only.
    func adopt(_ connection: Connection) {
        thread.check()
        let slot = Int(connection.descriptor)
        byDescriptor.grow(toHold: slot, with: nil)
        byDescriptor[slot] = connection
        noteChanged(connection)
    }

    /// Runs `action` on the loop's thread for `connection`, then looks again at what the
    /// connection waits for. Safe from any thread.
    func post(for connection: Connection, _ action: @escaping @Sendable () -> Void) {
        post { [self] in
            action()
            noteChanged(connection)
        }
    }

    /// `connection` did something this round: what it waits for is looked at again at its end.
    private func noteChanged(_ connection: Connection) {
        thread.check()
        guard !connection.awaitsWatchUpdate else { return }
        connection.awaitsWatchUpdate = true
        changed.append(connection)
    }

    private func run() -> Never {
        thread.bind()
        while true {
            let nearestDeadline = holdingPartialLines.values.lazy.compactMap(\.partialLineDeadline).min() ?? .max
            ready.removeAll(keepingCapacity: true)
            do {
                try readiness.wait(timeout: Self.timeout(until: nearestDeadline), into: &ready)
            } catch {
                log.error("event loop \(index): \(error)")
                continue
            }
            wokeAt = Self.now()
            var woken = false
            isReadingRound = true
            for event in ready {
                guard event.descriptor != wakeReader else {
                    woken = true
                    continue
                }
                guard let connection = byDescriptor[Int(event.descriptor)] else { continue }
                connection.handle(revents: event.events)
                noteChanged(connection)
            }
            isReadingRound = false
            sendRoundAnswers()
            if woken { runInbox() }
            if nearestDeadline != .max {
                let now = Self.now()
                if now >= nearestDeadline {
                    for connection in holdingPartialLines.values {
                        connection.closeIfStalled(now: now)
                        noteChanged(connection)
                    }
                }
            }
            updateWatches()
        }
    }

    /// Watches each connection noted this round for what it waits for now, and forgets those
    /// that closed — first, since a connection adopted meanwhile may have been given a closed
    /// one's descriptor number.
    private func updateWatches() {
        guard !changed.isEmpty else { return }
        for connection in changed where connection.isClosed {
            readiness.forget(connection.descriptor)
            if byDescriptor[Int(connection.descriptor)] === connection { byDescriptor[Int(connection.descriptor)] = nil }
            if connection.holdsPartialLine { holdingPartialLines[connection.id] = nil }
        }
        for connection in changed where !connection.isClosed {
            do {
                try readiness.watch(connection.descriptor, for: connection.awaitedEvents)
            } catch {
                log.error("event loop \(index): cannot watch connection \(connection.id): \(error)")
            }
            let holds = connection.partialLineDeadline != nil
            if holds != connection.holdsPartialLine {
                connection.holdsPartialLine = holds
                holdingPartialLines[connection.id] = holds ? connection : nil
            }
        }
        for connection in changed { connection.awaitsWatchUpdate = false }
        changed.removeAll(keepingCapacity: true)
    }

    /// Holds `connection`'s answers until the round's reads are done. Loop thread only, while
    /// ``isReadingRound``.
    func sendAtRoundEnd(_ connection: Connection) {
        thread.check()
        answersToSend.append(connection)
    }

    /// Sends every held answer, the connection read last first (each connection's own answers
    /// keep their order), as redis's `handleClientsWithPendingWrites` walks the clients it
    /// linked at the head of its list: at `daemon.ping` -c 50 that lowered the daemon's system
    /// time a request in every run and took the ratio to redis from 0.94 to 0.99 (68 alternated
    /// rounds; docs/performance.md). The list keeps its storage for the next round (a copy of it
    /// would cost an allocation a round). Each of these connections was read this round, so it
    /// is noted already (``noteChanged(_:)``).
    private func sendRoundAnswers() {
        var next = answersToSend.count
        while next > 0 {
            next -= 1
            answersToSend[next].sendHeldAnswers()
        }
        answersToSend.removeAll(keepingCapacity: true)
    }

    /// The wait's timeout in milliseconds to wake at `deadline` (-1: no deadline), rounded up.
    private static func timeout(until deadline: UInt64) -> Int32 {
        guard deadline != .max else { return -1 }
        let now = now()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    private func runInbox() {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeReader, &drain, drain.count) > 0 {}
        let actions = inbox.withLock { inbox in
            defer {
                inbox.actions.removeAll(keepingCapacity: true)
                inbox.woken = false
            }
            return inbox.actions
        }
        for action in actions { action() }
    }
}

/// Every event loop of the daemon; connections are spread over them in turn.
final class EventLoops: Sendable {
    let loops: [EventLoop]

    /// `count` loops (clarityd.json's `eventLoops`).
    init(count: Int, log: Logger) throws(SystemCallError) {
        var loops: [EventLoop] = []
        for index in 0..<count { loops.append(try EventLoop(index: index, log: log)) }
        self.loops = loops
    }

    func start() {
        for loop in loops { loop.start() }
    }

    /// Whether every loop runs an action posted to it within `limit`: the systemd watchdog's
    /// proof that the daemon still turns (a loop stuck in a call would withhold the ping).
    func allTurning(within limit: DispatchTimeInterval) -> Bool {
        let answered = DispatchSemaphore(value: 0)
        for loop in loops { loop.post { answered.signal() } }
        let deadline = DispatchTime.now() + limit
        return loops.allSatisfy { _ in answered.wait(timeout: deadline) == .success }
    }

    func loop(for connectionID: Int) -> EventLoop {
        loops[connectionID % loops.count]
    }
}
