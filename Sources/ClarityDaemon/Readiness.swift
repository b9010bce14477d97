#if canImport(Glibc)
    import Glibc
    import CEventPoll
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which of an event loop's descriptors are ready: `epoll(7)` on Linux, where a round costs what
/// is ready and not what is connected (with `poll`, 2 000 idle connections made each ping at one
/// client eight times slower: docs/performance.md); `poll(2)` elsewhere, over every descriptor
/// watched.
///
/// A descriptor is watched for `POLLIN` and `POLLOUT` bits, or for 0: only its peer hanging up
/// or failing, which both report unasked (`POLLHUP`, `POLLERR`; epoll's bits have the same
/// values). A closed descriptor must be forgotten (``forget(_:)``) before its number can be
/// watched again. Confined to the loop's thread.
struct Readiness {
    /// A ready descriptor and what it is ready for, in `poll`'s bits.
    struct Ready {
        var descriptor: Int32
        var events: Int16
    }

    /// What each descriptor is watched for, by its number; nil: not watched.
    private var watched: [Int16?] = []
    #if canImport(Glibc)
        private let epoll: Int32
        private var received = [epoll_event](repeating: epoll_event(), count: 256)
    #else
        private var polled: [pollfd] = []
    #endif

    init() throws(SystemCallError) {
        #if canImport(Glibc)
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { throw SystemCallError("epoll_create1") }
        #endif
    }

    /// Watches `descriptor` for `events` from now on; nil stops watching it.
    mutating func watch(_ descriptor: Int32, for events: Int16?) throws(SystemCallError) {
        let slot = Int(descriptor)
        if slot >= watched.count {
            guard events != nil else { return }
            watched.grow(toHold: slot, with: nil)
        }
        let before = watched[slot]
        guard before != events else { return }
        #if canImport(Glibc)
            var event = epoll_event()
            event.events = UInt32(UInt16(bitPattern: events ?? 0))
            event.data.fd = descriptor
            let operation =
                switch (before, events) {
                case (nil, _): EPOLL_CTL_ADD
                case (_, nil): EPOLL_CTL_DEL
                default: EPOLL_CTL_MOD
                }
            if epoll_ctl(epoll, operation, descriptor, &event) != 0 {
                // The kernel knows better than `watched`: a descriptor still registered (its file
                // open elsewhere) is modified, one it dropped is added, one it no longer has is
                // already not watched.
                let retried: Int32? =
                    switch (operation, errno) {
                    case (EPOLL_CTL_ADD, EEXIST): EPOLL_CTL_MOD
                    case (EPOLL_CTL_MOD, ENOENT): EPOLL_CTL_ADD
                    case (EPOLL_CTL_DEL, ENOENT), (EPOLL_CTL_DEL, EBADF): nil
                    default: throw SystemCallError("epoll_ctl")
                    }
                if let retried, epoll_ctl(epoll, retried, descriptor, &event) != 0 { throw SystemCallError("epoll_ctl") }
            }
        #endif
        watched[slot] = events
    }

    /// Forgets `descriptor`, which was closed (the kernel dropped it from epoll then).
    mutating func forget(_ descriptor: Int32) {
        let slot = Int(descriptor)
        if slot < watched.count { watched[slot] = nil }
    }

    /// Waits at most `timeout` milliseconds (-1: without end) for descriptors to be ready, and
    /// appends them to `ready`. Nothing is appended when a signal interrupted the wait.
    mutating func wait(timeout: Int32, into ready: inout [Ready]) throws(SystemCallError) {
        #if canImport(Glibc)
            let count = epoll_wait(epoll, &received, Int32(received.count), timeout)
            guard count >= 0 else {
                if errno == EINTR { return }
                throw SystemCallError("epoll_wait")
            }
            for event in received[..<Int(count)] {
                ready.append(Ready(descriptor: event.data.fd, events: Int16(truncatingIfNeeded: event.events)))
            }
        #else
            polled.removeAll(keepingCapacity: true)
            for (slot, events) in watched.enumerated() {
                if let events { polled.append(pollfd(fd: Int32(slot), events: events, revents: 0)) }
            }
            guard poll(&polled, nfds_t(polled.count), timeout) >= 0 else {
                if errno == EINTR { return }
                throw SystemCallError("poll")
            }
            for entry in polled where entry.revents != 0 {
                ready.append(Ready(descriptor: entry.fd, events: entry.revents))
            }
        #endif
    }
}
