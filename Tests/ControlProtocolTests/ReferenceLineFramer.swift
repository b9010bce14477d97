// The reference model of NDJSON framing: LineFramerTests pin its rules, and
// JSONWireEquivalenceTests checks that the daemon's LineBuffer frames exactly as it does.
import Foundation

/// Splits a byte stream into `\n`-terminated lines (NDJSON), refusing lines over a limit.
///
/// A trailing `\r` is dropped, blank lines are skipped. The limit counts the line without its
/// `\n` and that `\r`. Once a line exceeds `maxLineBytes`
/// the framer reports ``Frame/tooLarge`` and stops: the stream cannot be resynchronised, so
/// the connection must answer -32004 and close.
public struct LineFramer: Sendable {
    public let maxLineBytes: Int
    private var buffer = Data()
    private var scanFrom = 0
    private var overflowed = false

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    public enum Frame: Sendable, Equatable {
        case line(Data)
        case tooLarge
    }

    /// Feeds bytes and returns the complete frames they finish. The bytes left over (the start
    /// of the next line) are moved to the front of the buffer once per call, not once per line.
    public mutating func push(_ bytes: Data) -> [Frame] {
        guard !overflowed else { return [] }
        buffer.append(bytes)
        var frames: [Frame] = []
        var lineStart = buffer.startIndex
        var searchFrom = buffer.startIndex + scanFrom
        while let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = buffer[lineStart..<newline]
            lineStart = newline + 1
            searchFrom = lineStart
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.count > maxLineBytes {
                overflowed = true
                frames.append(.tooLarge)
                return frames
            }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            frames.append(.line(Data(line)))
        }
        if lineStart != buffer.startIndex { buffer.removeSubrange(buffer.startIndex..<lineStart) }
        scanFrom = buffer.count
        // A last `\r` may be the first half of the `\r\n` ending a line of exactly the limit.
        if buffer.count - (buffer.last == UInt8(ascii: "\r") ? 1 : 0) > maxLineBytes {
            overflowed = true
            frames.append(.tooLarge)
        }
        return frames
    }

    /// Bytes received that do not yet form a complete line.
    public var pendingByteCount: Int { buffer.count }
}
