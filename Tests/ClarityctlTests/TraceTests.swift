import ControlProtocol
import Testing

@testable import clarityctl

@Suite struct TraceTests {
    private func trace(_ words: [String]) throws -> TraceGet {
        try parsedCommand(TraceGet.self, words)
    }

    private let kinds = ["monitor.intervalStart", "store.write", "app.state", "app", "monitor.threshold"]

    /// `trace.get` as the daemon answers it, over a trace of `count` events (seq 1…count, kinds
    /// in turn): `since`, `kinds` (a kind, or `x.` for the kinds under x), `limit` or `last`,
    /// at most a page.
    private func daemon(count: Int) -> ([String: JSONValue]) throws -> JSONValue {
        let kinds = kinds
        return { members in
            let since = members["since"]?.intValue ?? 0
            let selectors = members["kinds"]?.arrayValue?.compactMap(\.stringValue)
            var events: [JSONValue] = (since..<count).map { index in
                ["seq": .int(index + 1), "t": 0, "kind": .string(kinds[index % kinds.count]), "actor": "a"]
            }
            if let selectors {
                events = events.filter { event in
                    let kind = event["kind"]?.stringValue ?? ""
                    return selectors.contains { $0 == kind || ($0.hasSuffix(".") && kind.hasPrefix($0)) }
                }
            }
            if let last = members["last"]?.intValue { return .array(Array(events.suffix(last))) }
            return .array(Array(events.prefix(min(members["limit"]?.intValue ?? TraceGet.pageSize, TraceGet.pageSize))))
        }
    }

    private func seqs(_ events: [JSONValue]) -> [Int] {
        events.compactMap { $0["seq"]?.intValue }
    }

    @Test func aWordSelectsItsKindAndTheKindsUnderItUnlessItIsAKindOfItsOwn() {
        #expect(TraceGet.selectors("monitor") == ["monitor", "monitor."])
        #expect(TraceGet.selectors("monitor.") == ["monitor."])
        #expect(TraceGet.selectors("store.write") == ["store.write"])
        #expect(TraceGet.selectors("app") == ["app"], "app is a kind of its own, app.state is not under it")
        #expect(TraceGet.selectors("app.") == ["app."])
    }

    @Test func kindsAndWindowsAreTheDaemonsToApply() throws {
        let fetched = try trace(["--kind", "store.write", "--kind", "app", "--last", "2"]).fetch(daemon(count: 20))
        #expect(seqs(fetched) == [17, 19])
        #expect(seqs(try trace(["--kind=monitor", "--limit", "3"]).fetch(daemon(count: 20))) == [1, 5, 6])
        #expect(seqs(try trace(["--last", "0"]).fetch(daemon(count: 20))) == [])
        #expect(seqs(try trace(["--since", "18"]).fetch(daemon(count: 20))) == [19, 20])
    }

    /// The daemon answers a page at a time: the whole trace, or more than a page of the oldest,
    /// comes in several calls, each after the last seq seen.
    @Test func aLongTraceIsFetchedPageByPage() throws {
        let all = try trace([]).fetch(daemon(count: 25_000))
        #expect(all.count == 25_000 && seqs(all).last == 25_000)
        let oldest = try trace(["--limit", "12000"]).fetch(daemon(count: 25_000))
        #expect(seqs(oldest) == Array(1...12_000))
    }

    @Test func countsMustBeNonNegativeAndKindsMustBeGiven() throws {
        #expect(throws: UsageError.self) { try trace(["--last", "-3"]) }
        #expect(throws: UsageError.self) { try trace(["--limit", "x"]) }
        #expect(throws: UsageError.self) { try trace(["--limit", "1", "--last", "1"]) }
        #expect(throws: UsageError.self) { try trace(["--kind"]) }
        #expect(throws: UsageError.self) { try trace(["--kind", "--last", "3"]) }
        #expect(throws: UsageError.self) { try trace(["--kind="]) }
        #expect(try trace(["--limit", "0"]).window == .oldest(0))
        #expect(throws: UsageError.self) { try trace(["--last", "10001"]) }
    }

    @Test func traceLinesLeadWithTheSeqWhileEffectLinesKeepItAsAField() {
        let events: [JSONValue] = [
            ["seq": 9, "t": 0, "time": "x", "kind": "extension.launch", "actor": "clarity.monitor", "sandbox": "monitor"],
            ["seq": 10, "t": 120, "time": "y", "kind": "app.state", "actor": "springBoard"],
        ]
        #expect(
            EffectLines.lines(forTrace: .array(events)) == [
                " 9    0  extension.launch  clarity.monitor  sandbox=monitor",
                "10  120  app.state         springBoard",
            ])
        #expect(
            EffectLines.lines(forEvents: events) == [
                "  0  extension.launch  clarity.monitor  sandbox=monitor seq=9",
                "120  app.state         springBoard      seq=10",
            ])
    }
}
