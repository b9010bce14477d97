import ControlProtocol
import Foundation
import Testing

/// NDJSON framing: lines come out whole however the bytes arrive, and a line over the limit stops the stream.
@Suite struct LineFramerTests {
    private func lines(_ frames: [LineFramer.Frame]) -> [String] {
        frames.map { frame in
            switch frame {
            case .line(let bytes): String(decoding: bytes, as: UTF8.self)
            case .tooLarge: "<too large>"
            }
        }
    }

    private func push(_ framer: inout LineFramer, _ text: String) -> [String] {
        lines(framer.push(Data(text.utf8)))
    }

    @Test func splitsSeveralLinesInOnePush() {
        var framer = LineFramer(maxLineBytes: 100)
        #expect(push(&framer, "one\ntwo\nthree\n") == ["one", "two", "three"])
        #expect(framer.pendingByteCount == 0)
    }

    @Test func joinsALineSplitAcrossPushes() {
        var framer = LineFramer(maxLineBytes: 100)
        #expect(push(&framer, #"{"jsonrpc":"#) == [])
        #expect(framer.pendingByteCount == 11)
        #expect(push(&framer, #""2.0"}"#) == [])
        #expect(push(&framer, "\nnext") == [#"{"jsonrpc":"2.0"}"#])
        #expect(framer.pendingByteCount == 4)
        #expect(push(&framer, "\n") == ["next"])
    }

    @Test func survivesByteByByteDelivery() {
        var framer = LineFramer(maxLineBytes: 100)
        var seen: [String] = []
        for byte in "alpha\nbeta\r\n\ngamma\n".utf8 { seen += lines(framer.push(Data([byte]))) }
        #expect(seen == ["alpha", "beta", "gamma"])
    }

    @Test func dropsCarriageReturnsAndSkipsBlankLines() {
        var framer = LineFramer(maxLineBytes: 100)
        #expect(push(&framer, "a\r\n\n  \t \r\nb\n") == ["a", "b"])
    }

    @Test func acceptsALineOfExactlyTheLimit() {
        var framer = LineFramer(maxLineBytes: 8)
        #expect(push(&framer, "12345678") == [])
        #expect(push(&framer, "\n") == ["12345678"])
    }

    @Test func refusesACompleteLineOverTheLimit() {
        var framer = LineFramer(maxLineBytes: 8)
        #expect(push(&framer, "ok\n123456789\nlater\n") == ["ok", "<too large>"])
    }

    @Test func refusesAnUnfinishedLineAsSoonAsItPassesTheLimit() {
        var framer = LineFramer(maxLineBytes: 8)
        #expect(push(&framer, "1234") == [])
        #expect(push(&framer, "56789") == ["<too large>"])
    }

    @Test func staysStoppedAfterAnOversizedLine() {
        var framer = LineFramer(maxLineBytes: 4)
        #expect(push(&framer, "toolong") == ["<too large>"])
        #expect(push(&framer, "\nfine\n") == [])
    }

    @Test func handlesManyLinesInOneLargePush() {
        var framer = LineFramer(maxLineBytes: 64)
        let count = 10_000
        let text = (0..<count).map { "{\"id\":\($0)}\n" }.joined()
        let out = push(&framer, text)
        #expect(out.count == count)
        #expect(out.last == "{\"id\":\(count - 1)}")
    }
}
