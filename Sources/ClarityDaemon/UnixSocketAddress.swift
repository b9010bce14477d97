import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `sockaddr_un`, built from a filesystem path or (Linux) an abstract-namespace name.
struct UnixSocketAddress {
    private var storage = sockaddr_un()
    private let length: socklen_t

    /// Why a path cannot be a socket address.
    struct TooLong: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "socket path \(path) is \(path.utf8.count) bytes; a Unix socket address holds at most "
                + "\(SocketPath.maxLength) — choose a shorter path"
        }
    }

    /// A filesystem socket path; rejects paths longer than ``SocketPath/maxLength``.
    init(path: String) throws(TooLong) {
        let bytes = Array(path.utf8)
        guard bytes.count <= SocketPath.maxLength else { throw TooLong(path: path) }
        self.init(rawPath: bytes + [0])
    }

    /// A `$NOTIFY_SOCKET`-style address: a leading `@` names the abstract namespace (Linux), where
    /// it is replaced with NUL and the name is not NUL-terminated. Nil when it is too long.
    init?(notifySocket: String) {
        var bytes = Array(notifySocket.utf8)
        if bytes.first == UInt8(ascii: "@") {
            bytes[0] = 0
        } else {
            bytes.append(0)
        }
        guard bytes.count <= MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return nil }
        self.init(rawPath: bytes)
    }

    private init(rawPath: [UInt8]) {
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { sunPath in
            sunPath.copyBytes(from: rawPath)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        length = socklen_t(pathOffset + rawPath.count)
        #if !os(Linux)
            storage.sun_len = UInt8(length)
        #endif
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
