import DaemonTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// systemd's end of `$NOTIFY_SOCKET`: a datagram socket the daemon's messages arrive on
/// (`READY=1` once it listens: how a test that starts clarityd itself waits for it).
final class NotifySocket {
    let path: String
    private let descriptor: Int32

    init() throws {
        path = "/tmp/notify-\(UUID().uuidString.prefix(8)).sock"
        descriptor = try boundUnixSocket(path: path, datagram: true)
        let seconds = 20 * TestTimeouts.scale
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next message; nil after 20 s (times ``TestTimeouts/scale``) without one.
    func next() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// Messages until one contains `text` (which is returned); nil when none comes.
    func until(_ text: String) -> String? {
        while let message = next() {
            if message.contains(text) { return message }
        }
        return nil
    }
}
