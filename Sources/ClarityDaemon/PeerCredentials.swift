import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who is on the other end of an accepted connection: `SO_PEERCRED` on Linux, `getpeereid` on Darwin.
struct PeerCredentials: Sendable, CustomStringConvertible {
    let uid: uid_t
    /// The peer's process id, where the platform tells it (Linux).
    let pid: pid_t?

    #if os(Linux)
        /// `struct ucred`, which `import Glibc` does not expose (docs/architecture.md, "The daemon on Linux").
        private struct UCred {
            var pid: pid_t = 0
            var uid: uid_t = 0
            var gid: gid_t = 0
        }
    #endif

    static func of(_ fd: Int32) throws(SystemCallError) -> PeerCredentials {
        #if os(Linux)
            var credentials = UCred()
            var length = socklen_t(MemoryLayout<UCred>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
                throw SystemCallError("getsockopt(SO_PEERCRED)")
            }
            return PeerCredentials(uid: credentials.uid, pid: credentials.pid)
        #else
            var uid = uid_t()
            var gid = gid_t()
            guard getpeereid(fd, &uid, &gid) == 0 else { throw SystemCallError("getpeereid") }
            return PeerCredentials(uid: uid, pid: nil)
        #endif
    }

    /// The daemon serves only its own user and root.
    var isAllowed: Bool { uid == getuid() || uid == 0 }

    var description: String {
        pid.map { "uid \(uid), pid \($0)" } ?? "uid \(uid)"
    }
}
