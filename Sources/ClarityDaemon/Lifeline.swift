import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--lifeline`: the daemon stops, as on SIGTERM, when its standard input reaches its end. The
/// program that started it holds the other end of a pipe and never writes to it; when that
/// program ends — however it ends, `kill -9` included — the kernel closes its end, and the
/// daemon follows it instead of running on, orphaned (clarityctl's `--standalone` daemon).
enum Lifeline {
    /// Watches standard input from a thread of its own; `ended` runs once, at its end.
    static func watch(_ ended: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                break
            }
            ended()
        }
        thread.name = "clarityd.lifeline"
        thread.start()
    }
}
