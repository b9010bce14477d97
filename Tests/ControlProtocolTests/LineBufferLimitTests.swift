import ControlProtocol
import Foundation
import Testing

/// The line limit counts what the line holds: the `\n` that ends it and a `\r` just before that
/// (which is dropped) are not part of it, however the bytes arrive. And a buffer that once held
/// a long line gives the memory back.
@Suite struct LineBufferLimitTests {
    private static let limit = 16

    /// Feeds `chunks` one after another and pulls after each; what came out, in order.
    private func frames(_ chunks: [String], limit: Int = limit) -> [String] {
        var buffer = LineBuffer(maxLineBytes: limit)
        var seen: [String] = []
        for chunk in chunks {
            buffer.append(Array(chunk.utf8))
            pull: while true {
                var line = ""
                switch buffer.next({ line = String(decoding: $0, as: UTF8.self) }) {
                case .line: seen.append(line)
                case .tooLarge:
                    seen.append("<too large>")
                    break pull
                case .needMore: break pull
                }
            }
        }
        return seen
    }

    private let full = String(repeating: "x", count: limit)

    @Test func aLineOfExactlyTheLimitEndedByCRLFIsAccepted() {
        #expect(frames([full + "\r\n", "next\n"]) == [full, "next"])
    }

    @Test func aLineOfExactlyTheLimitIsAcceptedWhenItsCRLFArrivesLater() {
        #expect(frames([full, "\r", "\n", "next\n"]) == [full, "next"])
        #expect(frames([full + "\r", "\nnext\n"]) == [full, "next"])
        #expect(frames([String(full.prefix(5)), String(full.dropFirst(5)) + "\r", "\n"]) == [full])
    }

    @Test func oneByteOverTheLimitIsRefusedWithOrWithoutCR() {
        #expect(frames([full + "y\r\n"]) == ["<too large>"])
        #expect(frames([full + "y\n"]) == ["<too large>"])
        #expect(frames([full + "y\r"]) == ["<too large>"])
    }

    /// A `\r` that is not followed by `\n` is part of the line, so it counts.
    @Test func aCRInsideTheLineCounts() {
        #expect(frames([full + "\r", "y"]) == ["<too large>"])
        #expect(frames([full + "\ry\n"]) == ["<too large>"])
        #expect(frames([full + "\r\r\n"]) == ["<too large>"])
        #expect(frames([String(full.dropFirst()) + "\r\r\n"]) == [String(full.dropFirst()) + "\r"])
    }

    /// The real default: a line of exactly 1 MiB with `\r\n`, sent in socket-sized pieces.
    @Test func aLineOfExactlyOneMebibyteEndedByCRLF() {
        let limit = 1_048_576
        var buffer = LineBuffer(maxLineBytes: limit)
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: limit) + Array("\r\n".utf8)
        var lengths: [Int] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 65_536)
            buffer.append(Array(bytes[offset..<end]))
            offset = end
            while case .line = buffer.next({ lengths.append($0.count) }) {}
        }
        let overflowed = buffer.overflowed
        #expect(lengths == [limit])
        #expect(!overflowed)
    }

    /// Once a long line has been handed out, the buffer does not keep its memory.
    @Test func memoryOfALongLineIsReleased() {
        var buffer = LineBuffer(maxLineBytes: 1_048_576)
        buffer.append([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000) + [UInt8(ascii: "\n")])
        #expect(buffer.next { _ in } == .line)
        #expect(buffer.next { _ in } == .needMore)
        #expect(buffer.pendingByteCount == 0)
        #expect(buffer.retainedBytes <= 64 * 1024)
        buffer.append(Array("rest".utf8))
        #expect(buffer.pendingByteCount == 4)
    }

    /// A short unfinished line left behind a long one doesn't keep the long one's memory.
    @Test func memoryIsReleasedBehindAShortTail() {
        var buffer = LineBuffer(maxLineBytes: 1_048_576)
        buffer.append([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000) + Array("\nta".utf8))
        #expect(buffer.next { _ in } == .line)
        #expect(buffer.next { _ in } == .needMore)
        #expect(buffer.pendingByteCount == 2)
        #expect(buffer.retainedBytes <= 64 * 1024)
        buffer.append(Array("il\n".utf8))
        var line = ""
        #expect(buffer.next { line = String(decoding: $0, as: UTF8.self) } == .line)
        #expect(line == "tail")
    }
}
