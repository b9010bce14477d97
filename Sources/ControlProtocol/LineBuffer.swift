import Foundation

/// Frames NDJSON lines by the protocol's rules (docs/protocol.md; the tests hold a reference
/// model), one line at a time and without copying: bytes go in with
/// ``append(_:)``, and ``next(_:)`` hands out the next complete line as a view of the buffer.
///
/// A line ends at `\n`; a trailing `\r` is dropped and blank lines (only spaces and tabs) are
/// skipped. The limit counts what the line holds, without the `\n` and a `\r` just before it, so a
/// line of exactly `maxLineBytes` is taken with either ending. A longer line — or an unfinished
/// one that has already grown past it (not counting a last `\r`, which may be half of `\r\n`) —
/// is ``Pull/tooLarge``, after which the buffer takes nothing more: the stream cannot be
/// resynchronised. Taking lines one at a time lets the caller stop between two lines (while a
/// request is being answered elsewhere) and go on later from the same place.
///
/// Memory a long line needed is given back once it has been handed out: the buffer keeps at
/// most ``keptCapacity`` bytes beyond what it still holds.
public struct LineBuffer: Sendable {
    public let maxLineBytes: Int
    @usableFromInline var storage: [UInt8] = []
    /// The first byte not yet handed out.
    @usableFromInline var start = 0
    /// Bytes from `start` already known to hold no `\n`.
    private var scanned = 0
    public private(set) var overflowed = false

    /// Capacity the buffer may keep once its bytes have been handed out; beyond it, the storage
    /// is given back (a client that sent one long line does not keep its memory while idle).
    public static let keptCapacity = 64 * 1024

    private static let carriageReturn = UInt8(ascii: "\r")

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

    /// Bytes received and not yet handed out as lines (complete or not). Inlinable: the
    /// daemon's event loop asks twice a request (a call into this module cost 1.5 % of its time).
    @inlinable public var pendingByteCount: Int { storage.count - start }

    /// Bytes of memory the buffer holds on to (at least ``pendingByteCount``).
    public var retainedBytes: Int { storage.capacity }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !overflowed, !bytes.isEmpty else { return }
        if start >= 16 * 1024 || start == storage.count { compact() }
        storage.append(contentsOf: bytes)
    }

    /// Drops the bytes already handed out, and gives back capacity beyond ``keptCapacity``.
    private mutating func compact() {
        let pending = storage.count - start
        if storage.capacity > Self.keptCapacity && storage.capacity > 2 * pending {
            storage = pending == 0 ? [] : Array(storage[start...])
        } else if pending == 0 {
            storage.removeAll(keepingCapacity: true)
        } else if start > 0 {
            storage.removeSubrange(0..<start)
        }
        start = 0
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
                // A last `\r` may be the start of the `\r\n` that ends a line of exactly the limit.
                let held = end - start - (end > start && storage[end - 1] == Self.carriageReturn ? 1 : 0)
                if held > maxLineBytes {
                    overflowed = true
                    return .tooLarge
                }
                if storage.capacity > Self.keptCapacity { compact() }
                return .needMore
            }
            let lineStart = start
            start = newline + 1
            scanned = 0
            var lineEnd = newline
            if lineEnd > lineStart, storage[lineEnd - 1] == Self.carriageReturn { lineEnd -= 1 }
            if lineEnd - lineStart > maxLineBytes {
                overflowed = true
                return .tooLarge
            }
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
