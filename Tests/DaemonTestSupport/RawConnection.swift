import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain blocking connection to a Unix socket, for protocol tests: send any bytes, read
/// `\n`-terminated lines (as text or as bytes that may not be UTF-8), half-close, notice when the
/// daemon closes. Reads give up after `receiveTimeout`.
public final class RawConnection {
    /// Why a connection failed; `errno` is the C error.
    public struct Failure: Error, CustomStringConvertible {
        public let operation: String
        public let errno: Int32
        public var description: String { "\(operation): \(String(cString: strerror(errno)))" }

        public init(operation: String, errno: Int32) {
            self.operation = operation
            self.errno = errno
        }
    }

    private let descriptor: Int32
    private var pending: [UInt8] = []
    public private(set) var isClosedByPeer = false

    public init(path: String, receiveTimeout: Double = 10) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(operation: "connect \(path)", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        #if canImport(Glibc)
            descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
            var noSignal: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard descriptor >= 0 else { throw Failure(operation: "socket", errno: errno) }
        let receiveTimeout = receiveTimeout * TestTimeouts.scale
        var timeout = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: .init((receiveTimeout - receiveTimeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            // No close here: deinit runs when an initializer throws after every stored property
            // is set, and closing twice would close whatever another thread opened meanwhile.
            throw Failure(operation: "connect \(path)", errno: errno)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `bytes`; fails with EPIPE once the daemon has closed the connection.
    public func send(_ bytes: [UInt8]) throws {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, flags) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "send", errno: errno)
            }
            offset += sent
        }
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Half-closes the connection (`shutdown(SHUT_WR)`): the daemon answers what was sent, then
    /// closes.
    public func shutdownWrite() {
        #if canImport(Glibc)
            _ = shutdown(descriptor, Int32(SHUT_WR))
        #else
            _ = shutdown(descriptor, SHUT_WR)
        #endif
    }

    /// The next line without its `\n`; nil when the daemon closed the connection first. Throws
    /// (EAGAIN) when nothing arrives within the receive timeout.
    public func readLine() throws -> String? {
        try readLineBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line's bytes without its `\n`, as ``readLine()``; a partial line waits in
    /// `pending` across timeouts.
    public func readLineBytes() throws -> [UInt8]? {
        var scanned = 0
        while true {
            if let newline = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            scanned = pending.count
            guard try receive() else { return nil }
        }
    }

    /// Reads until the daemon closes the connection, discarding what arrives; true when it
    /// closed within the receive timeout.
    public func waitForClose() -> Bool {
        while true {
            guard let more = try? receive() else { return false }
            if !more { return true }
        }
    }

    /// As ``waitForClose()``, but waiting at most `timeout` seconds (not scaled: a test paces
    /// itself with it) instead of the receive timeout.
    public func waitForClose(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000).rounded(.up))
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, left)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0, let more = try? receive() else { return false }
            if !more { return true }
        }
    }

    /// Reads once into `pending`; false at end of stream.
    private func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending += chunk[..<count]
                return true
            }
            if count == 0 || errno == ECONNRESET {
                isClosedByPeer = true
                return false
            }
            if errno != EINTR { throw Failure(operation: "receive", errno: errno) }
        }
    }
}

#if canImport(Glibc)
    private let systemSend = Glibc.send
#else
    private let systemSend = Darwin.send
#endif
