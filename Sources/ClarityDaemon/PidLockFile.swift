import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a file that holds the owner's pid, so that a second daemon is
/// refused with a message naming the first (docs/architecture.md, "The daemon on
/// Linux"). The kernel drops the lock when the process exits, even after `kill -9`; the file
/// itself is never removed (unlinking a held lock lets two daemons lock different files).
struct PidLockFile: Sendable {
    let path: String
    private let descriptor: Int32

    /// Why the lock was not taken.
    enum Failure: Error {
        /// Another process holds it; its pid when the file names one.
        case held(pid: Int32?)
        case system(SystemCallError)
    }

    /// Takes the lock without waiting and writes our pid into the file.
    static func acquire(_ path: String) throws(Failure) -> PidLockFile {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard fd >= 0 else { throw .system(SystemCallError("open", path)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = SystemCallError("flock", path)
            let owner = failure.code == EWOULDBLOCK ? Self.pid(in: fd) : nil
            close(fd)
            if failure.code == EWOULDBLOCK { throw .held(pid: owner) }
            throw .system(failure)
        }
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(fd, 0) == 0, pwrite(fd, text, text.count, 0) == text.count else {
            let failure = SystemCallError("write", path)
            close(fd)
            throw .system(failure)
        }
        return PidLockFile(path: path, descriptor: fd)
    }

    /// The pid written by the holder, if the file holds one.
    private static func pid(in fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}

extension PidLockFile.Failure {
    /// "another clarityd (pid 123) is using <what>", or the system call that failed.
    func message(using what: String) -> String {
        switch self {
        case .held(let pid?): "another clarityd (pid \(pid)) is using \(what)"
        case .held(nil): "another clarityd is using \(what)"
        case .system(let error): error.description
        }
    }
}
