import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// redis-server's side of `PING`, for `clarityctl bench --redis` without a redis installed: a
/// Unix stream socket that answers every line it receives with `reply` and `\r\n`, as redis
/// answers an inline `PING` with `+PONG` (or an error, `-ERR …`). A thread per connection.
final class PingServer: @unchecked Sendable {
    let path: String
    private let descriptor: Int32

    init(reply: String) throws {
        path = "/tmp/ping-\(UUID().uuidString.prefix(8)).sock"
        descriptor = try boundUnixSocket(path: path, datagram: false)
        let (listener, answer) = (descriptor, Array((reply + "\r\n").utf8))
        Thread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                Thread { Self.serve(client, answer: answer) }.start()
            }
        }.start()
    }

    /// Answers each line `client` sends until it hangs up.
    private static func serve(_ client: Int32, answer: [UInt8]) {
        defer { close(client) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            let lines = buffer[..<count].count(where: { $0 == UInt8(ascii: "\n") })
            let answers = Array([[UInt8]](repeating: answer, count: lines).joined())
            var sent = 0
            while sent < answers.count {
                let wrote = answers.withUnsafeBytes { write(client, $0.baseAddress! + sent, answers.count - sent) }
                guard wrote > 0 else { return }
                sent += wrote
            }
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        unlink(path)
    }
}
