import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Accepts clients on the listening socket from a thread of its own, never blocking on any of them.
///
/// Each accepted socket is made non-blocking and its peer checked: a uid other than ours or
/// root is refused (closed, with a warning — at most one a second, see ``Logger``). The rest go
/// to `admit`.
///
/// When the process runs out of file descriptors, clients that come meanwhile wait in the listen
/// backlog, and the listener stops polling the socket (which stays readable) until a descriptor
/// may be free again: at once when a connection closes (``AcceptWakeup/descriptorFreed()``), and
/// every ``retryInterval`` in case something else freed one. It then accepts the clients that
/// waited, in order.
///
/// This used to be a Dispatch read source, suspended from its own handler on `EMFILE` and
/// resumed 100 ms later. On Linux the source's epoll registration is one-shot, disarmed while the
/// handler runs, and a source suspended from inside its handler is not re-armed by `resume()`
/// (strace shows no `EPOLL_CTL_MOD` after it): the handler never ran again, the backlog filled, and
/// the daemon stopped accepting for good however many descriptors were free. A `poll` loop of our
/// own leaves no such state behind.
///
/// The stored properties never change after `init`; the loop's state is confined to its thread.
final class Listener: Sendable {
    private let descriptor: Int32
    private let wakeup: AcceptWakeup
    private let log: Logger
    private let admit: @Sendable (Int32, PeerCredentials) -> Void

    /// How long accepting waits, out of descriptors, before trying again when no connection has
    /// closed meanwhile (a descriptor may have been freed elsewhere, e.g. a journal closed).
    static let retryInterval: Int32 = 100  // milliseconds

    init(
        descriptor: Int32, wakeup: AcceptWakeup, log: Logger, admit: @escaping @Sendable (Int32, PeerCredentials) -> Void
    ) {
        self.descriptor = descriptor
        self.wakeup = wakeup
        self.log = log
        self.admit = admit
    }

    func start() {
        let thread = Thread { [self] in
            // Signals go to the main thread and Dispatch, as for the event loops.
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            SystemCall.nameCurrentThread("clarityd.accept")
            run()
        }
        thread.start()
    }

    private enum Outcome {
        /// Every waiting client was accepted.
        case drained
        /// Out of descriptors (or kernel memory): clients still wait.
        case starved(SystemCallError)
    }

    private func run() -> Never {
        var starvedSince: DispatchTime?
        var fds = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.reader, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].fd = starvedSince == nil ? descriptor : -1
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, nfds_t(fds.count), starvedSince == nil ? -1 : Self.retryInterval)
            if ready < 0 {
                if errno != EINTR { log.log(.error, about: "listener", kind: "poll", "\(SystemCallError("poll"))") }
                continue
            }
            if fds[1].revents != 0 { wakeup.drain() }
            switch acceptPending() {
            case .drained:
                if let since = starvedSince {
                    wakeup.disarm()
                    starvedSince = nil
                    let waited = (DispatchTime.now().uptimeNanoseconds - since.uptimeNanoseconds) / 1_000_000
                    log.log(
                        .info, about: "listener", kind: "descriptors back",
                        "accepting clients again, after \(waited) ms out of file descriptors")
                }
            case .starved(let error):
                if starvedSince == nil {
                    starvedSince = .now()
                    // Armed before the next poll: a connection closing from now on wakes it.
                    wakeup.arm()
                    log.log(
                        .error, about: "listener", kind: "out of descriptors",
                        "out of file descriptors (\(error)): new clients wait in the backlog until one is free")
                }
            }
        }
    }

    /// Accepts every client waiting in the backlog.
    private func acceptPending() -> Outcome {
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .starved(SystemCallError("accept"))
                default:
                    if !SystemCall.wouldBlock {
                        log.log(.error, about: "listener", kind: "accept", "\(SystemCallError("accept"))")
                    }
                    return .drained
                }
            }
            do {
                try SystemCall.prepareAccepted(client)
                let peer = try PeerCredentials.of(client)
                guard peer.isAllowed else {
                    log.log(
                        .warning, about: "listener", kind: "refused client",
                        "refused a client with \(peer): only uid \(getuid()) and root may connect")
                    close(client)
                    continue
                }
                admit(client, peer)
            } catch {
                log.log(.warning, about: "listener", kind: "dropped client", "dropped a client: \(error)")
                close(client)
            }
        }
    }
}

/// Wakes the ``Listener`` when a descriptor may have been freed while it is out of them: a pipe
/// it polls, written to only while it waits (``arm()``), so closing a connection otherwise costs
/// nothing.
final class AcceptWakeup: Sendable {
    let reader: Int32
    private let writer: Int32
    private let armed = Protected(false)

    init() throws(SystemCallError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemCallError("pipe") }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            try SystemCall.setNonBlocking(fd)
        }
        reader = ends[0]
        writer = ends[1]
    }

    /// A descriptor was closed: if the listener waits for one, it tries again now. Any thread.
    func descriptorFreed() {
        guard armed.withLock({ $0 }) else { return }
        var byte: UInt8 = 1
        while write(writer, &byte, 1) < 0 && errno == EINTR {}
    }

    func arm() { armed.withLock { $0 = true } }
    func disarm() { armed.withLock { $0 = false } }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(reader, &bytes, bytes.count) > 0 {}
    }
}
