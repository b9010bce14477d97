import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Unix socket bound to `path`, the listening side a test plays (systemd's notify socket, a
/// redis-server): a datagram socket, or a stream socket listening. Throws when it cannot bind.
func boundUnixSocket(path: String, datagram: Bool) throws -> Int32 {
    #if os(Linux)
        let type = Int32((datagram ? SOCK_DGRAM : SOCK_STREAM).rawValue)
    #else
        let type = datagram ? SOCK_DGRAM : SOCK_STREAM
    #endif
    let descriptor = socket(AF_UNIX, type, 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard descriptor >= 0, bound == 0, datagram || listen(descriptor, 64) == 0 else {
        if descriptor >= 0 { close(descriptor) }
        throw POSIXError(.EADDRINUSE)
    }
    return descriptor
}
