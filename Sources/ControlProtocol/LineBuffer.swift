import Foundation

/// Frames NDJSON lines by the protocol's rules (docs/protocol.md; the tests hold a reference
/// model), one line at a time and without copying: bytes go in with
/// ``append(_:)``, and ``next(_:)`` hands out the next complete line as a view of the buffer.
///
/// A line ends at `\n`; a trailing `\r` is dropped and blank lines (only spaces and tabs) are
/// skipped. A line longer than `maxLineBytes` — or an unfinished one that has already grown past
/// it — is ``Pull/tooLarge``, after which the buffer takes nothing more: the stream cannot be
/// resynchronised. Taking lines one at a time lets the caller stop between two lines (while a
/// request is being answered elsewhere) and go on later from the same place.
public struct LineBuffer: Sendable {
    public let maxLineBytes: Int
    private var storage: [UInt8] = []
    /// The first byte not yet handed out.
    private var start = 0
    /// Bytes from `start` already known to hold no `\n`.
    private var scanned = 0
    public private(set) var overflowed = false

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// What ``next(_:)`` found.
    public enum Pull {
        /// A line, which the body was given.
        case line
        /// The line is over the limit; nothing more will come.
        case tooLarge
        /// No complete line yet.
        case needMore
    }

    /// Bytes received and not yet handed out as lines (complete or not).
    public var pendingByteCount: Int { storage.count - start }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !overflowed, !bytes.isEmpty else { return }
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 16 * 1024 {
            storage.removeSubrange(0..<start)
            start = 0
        }
        storage.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Calls `body` with the next complete line (without its terminator), valid only during the call.
    public mutating func next(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Pull {
        guard !overflowed else { return .needMore }
        while true {
            let end = storage.count
            let found: Int? = storage.withUnsafeBytes { raw in
                let from = start + scanned
                guard from < end, let hit = memchr(raw.baseAddress! + from, Int32(UInt8(ascii: "\n")), end - from)
                else { return nil }
                return raw.baseAddress!.distance(to: UnsafeRawPointer(hit))
            }
            guard let newline = found else {
                scanned = end - start
                if end - start > maxLineBytes {
                    overflowed = true
                    return .tooLarge
                }
                return .needMore
            }
            let lineStart = start
            start = newline + 1
            scanned = 0
            if newline - lineStart > maxLineBytes {
                overflowed = true
                return .tooLarge
            }
            var lineEnd = newline
            if lineEnd > lineStart, storage[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            var blank = true
            for index in lineStart..<lineEnd where storage[index] != UInt8(ascii: " ") && storage[index] != UInt8(ascii: "\t") {
                blank = false
                break
            }
            if blank { continue }
            try storage.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[lineStart..<lineEnd])) }
            return .line
        }
    }
}
