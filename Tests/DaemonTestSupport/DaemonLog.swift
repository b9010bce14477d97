import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a daemon under test writes to stdout and stderr, read as it comes (through a pipe): kept
/// in its log file (for a post-mortem) and in memory, so that a test can wait for a line to be
/// written (``wait(timeout:until:)``), not poll the file with a sleep between looks.
///
/// A thread per daemon start reads the pipe to its end (when the daemon, and any backtracer it
/// started, have exited). ``text`` first takes whatever is in the pipe already, so a line the
/// daemon wrote before it answered a request is in ``text`` once the answer has been read.
final class DaemonLog: @unchecked Sendable {
    private let file: FileHandle
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var bytes: [UInt8] = []
    /// The read ends of the pipes whose writers may still write, guarded by `condition`.
    private var readers: Set<Int32> = []

    /// Appends to `url`, created when missing.
    init(url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        file = try FileHandle(forWritingTo: url)
        file.seekToEndOfFile()
        bytes = Array((try? Data(contentsOf: url)) ?? Data())
    }

    deinit {
        try? file.close()
    }

    /// A new pipe, read from now on; returns its writing end for a child's stdout and stderr,
    /// which the caller closes once the child has started (``closeOnExecSocketPair()``: a child
    /// another test starts meanwhile must not hold the writing end, or this log never ends).
    func attach() throws -> Int32 {
        let (reader, writer) = try closeOnExecSocketPair()
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        condition.withLock { _ = readers.insert(reader) }
        Thread.detachNewThread { [self] in follow(reader) }
        return writer
    }

    /// All written so far.
    var text: String {
        condition.withLock {
            drainAll()
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Waits until `satisfied` holds for the text written so far, or every writer has ended, or
    /// `timeout` seconds have passed; whether it holds then.
    func wait(timeout: Double, until satisfied: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while true {
                drainAll()
                let text = String(decoding: bytes, as: UTF8.self)
                if satisfied(text) { return true }
                if readers.isEmpty || !condition.wait(until: deadline) { return satisfied(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    /// Waits until every writer has closed its end (the daemon and its backtracer exited), at
    /// most `timeout` seconds; whether they all did.
    func waitForEnd(timeout: Double) -> Bool {
        _ = wait(timeout: timeout) { _ in false }
        return condition.withLock { readers.isEmpty }
    }

    /// Reads `reader` until its end, waking waiters whenever something came.
    private func follow(_ reader: Int32) {
        var open = true
        while open {
            var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, -1) < 0, errno != EINTR { break }
            open = condition.withLock { drain(reader) }
        }
        condition.withLock {
            readers.remove(reader)
            close(reader)
            condition.broadcast()
        }
    }

    /// Takes what `reader` holds now into the file and memory; false at its end. Called with
    /// `condition` held.
    @discardableResult
    private func drain(_ reader: Int32) -> Bool {
        guard readers.contains(reader) else { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
                try? file.write(contentsOf: chunk[..<count])
                condition.broadcast()
                continue
            }
            if count < 0, errno == EINTR { continue }
            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }

    private func drainAll() {
        for reader in readers { drain(reader) }
    }
}
