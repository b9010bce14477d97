import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells systemd (`Type=notify`) how the daemon is doing, one datagram to `$NOTIFY_SOCKET`
/// per state (`READY=1`, `STOPPING=1`). Without `$NOTIFY_SOCKET` it does nothing.
struct ServiceNotifier: Sendable {
    private let socketName: String?
    private let log: Logger

    init(environment: [String: String], log: Logger) {
        socketName = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        self.log = log
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
