import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells systemd (`Type=notify`) how the daemon is doing, one datagram to `$NOTIFY_SOCKET`
/// per state (`READY=1`, `RELOADING=1`, `STOPPING=1`). Without `$NOTIFY_SOCKET` it does nothing.
///
/// With `WatchdogSec=` systemd sets `$WATCHDOG_USEC` (and `$WATCHDOG_PID`): the daemon then sends
/// `WATCHDOG=1` every half of it, from a round trip through the event loops' lane of work
/// (``watchdogProbe``), so a daemon whose loops stopped turning is restarted.
struct ServiceNotifier: Sendable {
    private let socketName: String?
    private let log: Logger
    /// Half of `$WATCHDOG_USEC`, when the watchdog is meant for this process.
    let watchdogInterval: DispatchTimeInterval?

    init(environment: [String: String], log: Logger) {
        socketName = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        self.log = log
        let forUs = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
        if socketName != nil, forUs, let text = environment["WATCHDOG_USEC"], let usec = Int(text), usec > 0 {
            watchdogInterval = .microseconds(max(1, usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `WATCHDOG=1` every ``watchdogInterval`` while `probe` answers (it returns false when
    /// the daemon cannot show it is alive: the ping is then withheld and systemd acts). Returns
    /// the timer, which must be kept; nil without a watchdog.
    func startWatchdog(probe: @escaping @Sendable () -> Bool) -> DispatchSourceTimer? {
        guard let watchdogInterval else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "clarityd.watchdog"))
        timer.schedule(deadline: .now(), repeating: watchdogInterval)
        timer.setEventHandler { if probe() { notify("WATCHDOG=1") } }
        timer.activate()
        return timer
    }

    func notify(_ state: String) {
        guard let socketName else { return }
        guard let address = UnixSocketAddress(notifySocket: socketName) else {
            log.warning("NOTIFY_SOCKET \(socketName) is too long; not notifying the service manager")
            return
        }
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else {
            log.warning("cannot notify the service manager: \(SystemCallError("socket"))")
            return
        }
        defer { close(fd) }
        let message = Array(state.utf8)
        let sent = address.withSockAddr { pointer, length in
            sendto(fd, message, message.count, SystemCall.sendFlags, pointer, length)
        }
        if sent < 0 { log.warning("cannot notify the service manager: \(SystemCallError("sendto", socketName))") }
    }
}
