import ControlProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected, blocking Unix-domain stream socket. Closed when released.
final class UnixSocket {
    let descriptor: Int32

    /// Connects to the socket at `path`; a path longer than `sockaddr_un` holds fails with ENAMETOOLONG.
    init(connectingTo path: String) throws {
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
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw ClientError.cannotConnect(path: path, errno: code)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes`, retrying partial writes.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET { throw ClientError.closedByDaemon }
                throw ClientError.transport(operation: "write", errno: errno)
            }
            offset += written
        }
    }

    /// Reads what is available into `buffer`, blocking until something is; 0 means the daemon closed.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress!, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return 0 }
            throw ClientError.transport(operation: "read", errno: errno)
        }
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
    private let systemRead = Glibc.read
#else
    private let systemWrite = Darwin.write
    private let systemRead = Darwin.read
#endif
