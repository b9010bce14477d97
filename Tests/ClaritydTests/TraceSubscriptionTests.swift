import ControlProtocol
import Foundation
import Testing

@testable import ClarityDaemon

/// A subscription's buffer: bounded, silent until activated, and once full it drops every event
/// until the connection has taken what it holds, then says what is missing, in place.
@Suite struct TraceSubscriptionTests {
    private final class Wakes: @unchecked Sendable {
        private let count = Protected(0)
        var value: Int { count.withLock { $0 } }
        func note() { count.withLock { $0 += 1 } }
    }

    private func line(_ sequence: Int, bytes: Int = 100) -> [UInt8] {
        Array(#"{"seq":\#(sequence)}"#.utf8) + Array(repeating: UInt8(ascii: " "), count: bytes) + [UInt8(ascii: "\n")]
    }

    /// The lines taken, each as its text without the newline.
    private func take(_ subscription: TraceSubscription) -> (lines: [String], ended: Bool) {
        var output: [UInt8] = []
        let ended = subscription.take(into: &output)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return (lines, ended)
    }

    @Test func nothingGoesOutBeforeTheSubscribeAnswerThenTheConnectionIsWokenOnce() {
        let wakes = Wakes()
        let budget = ByteBudget(limit: 1 << 20)
        let subscription = TraceSubscription(device: "d", kinds: nil, budget: budget, wake: wakes.note)
        subscription.offer(line(1), sequence: 1)
        #expect(wakes.value == 0)
        #expect(take(subscription).lines.isEmpty)
        subscription.activate()
        subscription.offer(line(2), sequence: 2)
        #expect(wakes.value == 1, "one wake until the connection takes")
        #expect(budget.total == line(1).count + line(2).count, "buffered lines count against unsent output")
        #expect(take(subscription).lines == [#"{"seq":1}"#, #"{"seq":2}"#])
        #expect(budget.total == 0)
        subscription.offer(line(3), sequence: 3)
        #expect(wakes.value == 2)
    }

    @Test func aFullBufferDropsUntilTakenAndTheNoticeFollowsTheLastLineKept() throws {
        let subscription = TraceSubscription(device: "d", kinds: nil, budget: ByteBudget(limit: 1 << 30)) {}
        subscription.activate()
        let size = line(0, bytes: 1000).count
        let fitting = TraceSubscription.bufferLimit / size
        for sequence in 1...(fitting + 5) { subscription.offer(line(sequence, bytes: 1000), sequence: sequence) }
        let first = take(subscription).lines
        #expect(first.count == fitting + 1)
        #expect(first.dropLast().last == #"{"seq":\#(fitting)}"#)
        let notice = try JSONWire.decode(JSONValue.self, from: Data(try #require(first.last).utf8))
        #expect(notice["method"] == "trace.dropped")
        #expect(notice["params"] == ["device": "d", "dropped": 5, "from": .int(fitting + 1), "to": .int(fitting + 5)])
        subscription.offer(line(fitting + 6), sequence: fitting + 6)
        #expect(take(subscription).lines == [#"{"seq":\#(fitting + 6)}"#])
    }

    @Test func oneLineLongerThanTheBufferStillGoesThroughWhenItIsEmpty() {
        let subscription = TraceSubscription(device: "d", kinds: nil, budget: ByteBudget(limit: 1 << 30)) {}
        subscription.activate()
        subscription.offer(line(1, bytes: TraceSubscription.bufferLimit * 2), sequence: 1)
        subscription.offer(line(2), sequence: 2)
        let lines = take(subscription).lines
        #expect(lines.first == #"{"seq":1}"#)
        #expect(lines.last?.contains(#""dropped":1"#) == true)
    }

    @Test func theDaemonsCapOnUnsentOutputDropsToo() {
        let budget = ByteBudget(limit: 150)
        let subscription = TraceSubscription(device: "d", kinds: nil, budget: budget) {}
        subscription.activate()
        subscription.offer(line(1), sequence: 1)
        subscription.offer(line(2), sequence: 2)
        #expect(budget.total == line(1).count)
        #expect(take(subscription).lines.count == 2, "the first line and the notice for the second")
    }

    @Test func kindsSelectAsTraceGetDoes() {
        let subscription = TraceSubscription(device: "d", kinds: ["monitor.", "store.write"], budget: ByteBudget(limit: 1)) {}
        #expect(subscription.wants("monitor.threshold"))
        #expect(subscription.wants("store.write"))
        #expect(!subscription.wants("store.read"))
        #expect(!subscription.wants("monitor"))
        subscription.select(kinds: nil)
        #expect(subscription.wants("store.read"))
    }

    @Test func theEndComesAfterWhatWasBufferedAndNothingFollowsIt() throws {
        let subscription = TraceSubscription(device: "d", kinds: nil, budget: ByteBudget(limit: 1 << 20)) {}
        subscription.activate()
        subscription.offer(line(1), sequence: 1)
        subscription.end(.removed)
        subscription.offer(line(2), sequence: 2)
        let (lines, ended) = take(subscription)
        #expect(ended)
        #expect(lines.count == 2 && lines[0] == #"{"seq":1}"#)
        #expect(lines[1] == #"{"jsonrpc":"2.0","method":"trace.ended","params":{"device":"d","reason":"removed"}}"#)
        #expect(take(subscription).lines.isEmpty)
    }
}
