import ControlProtocol
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected Unix-domain stream socket whose reads and writes wait for the daemon at most an
/// idle timeout each. Closed when released.
///
/// The descriptor is non-blocking and every wait is a `poll(2)`: a read waits at most
/// `idleTimeout` for the next bytes and a write at most that long for room to make progress, so
/// a daemon that keeps sending (progress notifications, a long answer) keeps the client waiting,
/// and a stopped one gives ``ClientError/timedOut(seconds:)``.
final class UnixSocket {
    let descriptor: Int32
    /// Seconds a read or write may wait without progress; nil waits forever.
    var idleTimeout: Double?

    /// Connects to the socket at `path`; a path longer than `sockaddr_un` holds fails with
    /// ENAMETOOLONG. On Linux a daemon whose listen backlog is full makes `connect` wait, at most
    /// `idleTimeout` (the socket's send timeout).
    init(connectingTo path: String, idleTimeout: Double?) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        #if canImport(Darwin)
            address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif
        let pathBytes = Array(path.utf8)
        guard pathBytes.count <= SocketPath.maxLength else {
            throw ClientError.cannotConnect(path: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
        }
        #if canImport(Glibc)
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ClientError.cannotConnect(path: path, errno: errno) }
        if let idleTimeout {
            var sendTimeout = Self.sendTimeout(seconds: idleTimeout)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            if code == EAGAIN, let idleTimeout { throw ClientError.timedOut(seconds: idleTimeout) }
            throw ClientError.cannotConnect(path: path, errno: code)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        self.idleTimeout = idleTimeout
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes`, waiting for room as long as each part is written within the idle timeout.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: try waitUntilReady(for: POLLOUT)
            case EPIPE, ECONNRESET: throw ClientError.closedByDaemon
            case let code: throw ClientError.transport(operation: "write", errno: code)
            }
        }
    }

    /// Reads what is available into `buffer`, waiting at most the idle timeout for something to
    /// arrive; 0 means the daemon closed.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress!, buffer.count)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN: try waitUntilReady(for: POLLIN)
            case ECONNRESET: return 0
            case let code: throw ClientError.transport(operation: "read", errno: code)
            }
        }
    }

    /// Waits until the socket is readable (`POLLIN`) or writable (`POLLOUT`), or hung up or in
    /// error (the read or write that follows tells which); throws once `idleTimeout` has passed.
    private func waitUntilReady(for event: Int32) throws {
        let deadline = idleTimeout.map { Self.now() + $0 }
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(event), revents: 0)
            let ready = poll(&entry, 1, deadline.map(Self.pollMilliseconds(until:)) ?? -1)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw ClientError.transport(operation: "poll", errno: errno) }
            if let deadline, let idleTimeout, Self.now() >= deadline { throw ClientError.timedOut(seconds: idleTimeout) }
        }
    }

    /// Monotonic seconds.
    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// `poll`'s timeout for `deadline`: whole milliseconds rounded up, capped at what an `Int32`
    /// holds (the caller polls again until the deadline).
    private static func pollMilliseconds(until deadline: Double) -> Int32 {
        Int32(min(max(0, ((deadline - now()) * 1000).rounded(.up)), Double(Int32.max)))
    }

    /// `seconds` as a send timeout: whole microseconds rounded up (a zero `timeval` would mean
    /// no timeout), capped at `Int32.max` seconds (68 years).
    private static func sendTimeout(seconds: Double) -> timeval {
        let microseconds = max(1, (min(seconds, Double(Int32.max)) * 1e6).rounded(.up))
        let whole = (microseconds / 1e6).rounded(.down)
        return timeval(tv_sec: .init(whole), tv_usec: .init(microseconds - whole * 1e6))
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
    private let systemRead = Glibc.read
#else
    private let systemWrite = Darwin.write
    private let systemRead = Darwin.read
#endif
