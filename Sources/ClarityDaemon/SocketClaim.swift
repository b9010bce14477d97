import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The right to listen on one socket path (docs/architecture.md, "The daemon on Linux").
///
/// Acquiring it checks the path fits a socket address, makes the socket's directory private
/// (``PrivateDirectory``), takes `<socket>.lock`
/// (``PidLockFile``) so only one daemon serves a path, and removes a stale socket left by a
/// dead daemon. The lock is held until the process exits.
final class SocketClaim: Sendable {
    let path: String
    private let lock: PidLockFile

    private init(path: String, lock: PidLockFile) {
        self.path = path
        self.lock = lock
    }

    static func acquire(path: String, log: Logger) throws(StartupFailure) -> SocketClaim {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw .runtime(error.description)
        }
        let directory = NSString(string: path).deletingLastPathComponent
        try PrivateDirectory.secure(directory.isEmpty ? "." : directory, what: "socket directory", log: log)
        let lock: PidLockFile
        do {
            lock = try PidLockFile.acquire(path + ".lock")
        } catch {
            if case .held(let pid) = error {
                throw .runtime("another clarityd\(pid.map { " (pid \($0))" } ?? "") is running on \(path)")
            }
            throw .runtime(error.message(using: path))
        }
        try removeStaleSocket(path, address: address, log: log)
        return SocketClaim(path: path, lock: lock)
    }

    /// Binds and listens on the claimed path, socket mode 0600; returns the non-blocking listening socket.
    func bindAndListen(backlog: Int32 = 1024) throws(StartupFailure) -> Int32 {
        do {
            let address = try UnixSocketAddress(path: path)
            let fd = try SystemCall.makeStreamSocket()
            do {
                guard address.withSockAddr({ bind(fd, $0, $1) }) == 0 else { throw SystemCallError("bind", path) }
                guard chmod(path, mode_t(0o600)) == 0 else { throw SystemCallError("chmod", path) }
                guard listen(fd, backlog) == 0 else { throw SystemCallError("listen", path) }
                try SystemCall.setNonBlocking(fd)
            } catch {
                close(fd)
                throw error
            }
            return fd
        } catch {
            throw .runtime("cannot listen on \(path): \(error)")
        }
    }

    /// Removes the socket file (on shutdown). The lock stays held until exit.
    func removeSocket() {
        unlink(path)
    }

    /// A socket nobody answers on is a leftover from a dead daemon: unlink it. One that answers
    /// belongs to a live daemon (one that predates the lock file, or whose lock file was deleted).
    private static func removeStaleSocket(
        _ path: String, address: UnixSocketAddress, log: Logger
    ) throws(StartupFailure) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw .runtime("\(path) exists and is not a socket; remove it or choose another path")
        }
        switch probe(address) {
        case 0:
            throw .runtime("another clarityd is running on \(path)")
        case ECONNREFUSED, ENOENT:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .runtime(SystemCallError("unlink", path).description)
            }
            log.info("replaced stale socket \(path)")
        case let code:
            throw .runtime("cannot check existing socket \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Connects to `address` and hangs up; returns 0 when something listens there, else the errno.
    private static func probe(_ address: UnixSocketAddress) -> Int32 {
        let fd: Int32
        do {
            fd = try SystemCall.makeStreamSocket()
        } catch {
            return error.code
        }
        defer { close(fd) }
        return address.withSockAddr { connect(fd, $0, $1) } == 0 ? 0 : errno
    }
}
