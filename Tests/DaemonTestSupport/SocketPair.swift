import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected pair of stream sockets, both close-on-exec at once where the system can make
/// them so (Glibc's module has no `pipe2`, so a pair stands in for a pipe): a child another test
/// starts meanwhile must not inherit either end, or whoever waits for the far end to close (a
/// daemon's lifeline, a log's reader) would wait for that child too.
func closeOnExecSocketPair() throws -> (Int32, Int32) {
    var ends: [Int32] = [0, 0]
    #if canImport(Glibc)
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends)
    #else
        let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &ends)
        for end in ends where made == 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    #endif
    guard made == 0 else {
        throw DaemonProcess.StartFailure(reason: "socketpair failed: \(String(cString: strerror(errno)))", log: "")
    }
    return (ends[0], ends[1])
}
