import ControlProtocol
import Testing

@testable import clarityctl

@Suite struct TraceTests {
    private func trace(_ words: [String]) throws -> TraceGet {
        var arguments = Arguments(words)
        let options = try GlobalOptions.extract(from: &arguments, environment: [:])
        let command = try TraceGet(arguments: &arguments, options: options)
        try arguments.finish()
        return command
    }

    private let events: JSONValue = [
        ["seq": 7, "t": 0, "kind": "monitor.intervalStart", "actor": "deviceActivity"],
        ["seq": 8, "t": 0, "kind": "store.write", "actor": "clarity.monitor", "key": "frictionLevel"],
        ["seq": 9, "t": 60, "kind": "app.state", "actor": "springBoard"],
        ["seq": 10, "t": 60, "kind": "app", "actor": "clarity.app"],
        ["seq": 11, "t": 300, "kind": "monitor.threshold", "actor": "deviceActivity"],
    ]

    private func seqs(_ value: JSONValue) -> [Int] {
        (value.arrayValue ?? []).compactMap { $0["seq"]?.intValue }
    }

    @Test func aKindSelectsItselfAndTheKindsUnderIt() {
        #expect(TraceGet.kind("monitor.threshold", isSelectedBy: "monitor"))
        #expect(TraceGet.kind("monitor.threshold", isSelectedBy: "monitor."))
        #expect(TraceGet.kind("store.write", isSelectedBy: "store.write"))
        #expect(TraceGet.kind("app", isSelectedBy: "app"))
        #expect(!TraceGet.kind("app.state", isSelectedBy: "app"), "app is a kind of its own")
        #expect(TraceGet.kind("app.state", isSelectedBy: "app."))
        #expect(!TraceGet.kind("monitoring", isSelectedBy: "monitor"))
        #expect(!TraceGet.kind("store.write", isSelectedBy: "store.wr"))
        #expect(!TraceGet.kind("store", isSelectedBy: "store."))
    }

    @Test func repeatedKindsSelectTheUnionInTraceOrderAndLastKeepsTheNewest() throws {
        #expect(seqs(try trace(["--kind", "store.write", "--kind", "app"]).selected(from: events)) == [8, 10])
        #expect(seqs(try trace(["--kind=monitor", "--last", "1"]).selected(from: events)) == [11])
        #expect(seqs(try trace(["--last", "2"]).selected(from: events)) == [10, 11])
        #expect(seqs(try trace(["--last", "0"]).selected(from: events)) == [])
        #expect(seqs(try trace(["--kind", "monitor", "--limit", "1"]).selected(from: events)) == [7])
    }

    @Test func countsMustBeNonNegativeAndKindsMustBeGiven() throws {
        #expect(throws: UsageError.self) { try trace(["--last", "-3"]) }
        #expect(throws: UsageError.self) { try trace(["--limit", "x"]) }
        #expect(throws: UsageError.self) { try trace(["--limit", "1", "--last", "1"]) }
        #expect(throws: UsageError.self) { try trace(["--kind"]) }
        #expect(throws: UsageError.self) { try trace(["--kind", "--last", "3"]) }
        #expect(throws: UsageError.self) { try trace(["--kind="]) }
        #expect(try trace(["--limit", "0"]).window == .oldest(0))
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
