import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory only the daemon's user may change: the socket's, the state directory, `devices/`.
///
/// Created 0700 when missing. One that exists must be a real directory (not a symbolic link)
/// owned by the daemon's user. If others may write to it, another user could replace the socket
/// or plant a link where a file will be written: a directory of ours is set back to 0700 (and the
/// log says so); a shared one (sticky, like `/tmp`) is refused, since changing its mode would
/// break it for everyone.
enum PrivateDirectory {
    /// Makes `path` (`what` names it in messages: "socket directory") safe to use, or says why not.
    static func secure(_ path: String, what: String, log: Logger) throws(StartupFailure) {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .runtime("cannot create \(what) \(path): \(error.localizedDescription)")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .runtime(SystemCallError("lstat", path).description) }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK { throw .runtime("\(what) \(path) is a symbolic link; refusing to use it") }
        guard kind == S_IFDIR else { throw .runtime("\(what) \(path) is not a directory") }
        guard info.st_uid == getuid() else {
            throw .runtime("\(what) \(path) is owned by uid \(info.st_uid), not by uid \(getuid())")
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return }
        if info.st_mode & S_ISVTX != 0 {
            throw .runtime(
                "\(what) \(path) is shared (others may write to it); use a directory of its own, e.g. \(path)/clarityd-\(getuid())")
        }
        guard chmod(path, 0o700) == 0 else { throw .runtime(SystemCallError("chmod", path).description) }
        log.warning("\(what) \(path) was writable by other users; set to 0700")
    }
}
