import ControlProtocol
import Foundation
import Testing

@testable import clarityctl

/// `trace export` and `watch`: how their words are read, and how `watch` shows what arrives.
@Suite struct TraceExportWatchTests {
    private func command(_ words: [String]) throws -> any ClarityCommand {
        var arguments = Arguments(words)
        let options = try GlobalOptions.extract(from: &arguments, environment: [:])
        guard case .command(let type)? = try CommandRegistry.lookup(&arguments) else {
            throw UsageError("no command")
        }
        let command = try type.init(arguments: &arguments, options: options)
        try arguments.finish()
        return command
    }

    @Test func traceExportIsAVerbOfTraceWhileTraceAloneStaysTraceGet() throws {
        #expect(try command(["trace", "export"]) is TraceExport)
        #expect(try command(["trace", "--last", "3"]) is TraceGet)
        #expect(try command(["trace"]) is TraceGet)
        #expect(try command(["watch"]) is TraceWatch)
    }

    @Test func traceExportAsksForPerfettoInTheWindowGiven() throws {
        let export = try #require(try command(["trace", "export", "-o", "run.json", "--last", "50"]) as? TraceExport)
        #expect(export.file?.path == "run.json")
        #expect(export.members == ["format": "perfetto", "last": 50])
        let long = try #require(try command(["trace", "export", "--output=x.json", "--since", "7", "--limit", "3"]) as? TraceExport)
        #expect(long.file?.path == "x.json")
        #expect(long.members == ["format": "perfetto", "since": 7, "limit": 3])
        #expect((try command(["trace", "export"]) as? TraceExport)?.file == nil)
    }

    @Test func traceExportArgumentsAreChecked() {
        for words in [
            ["trace", "export", "-o", "a", "--output", "b"], ["trace", "export", "--last", "100001"],
            ["trace", "export", "--limit", "-1"], ["trace", "export", "--limit", "1", "--last", "1"],
            ["trace", "export", "-o="], ["trace", "export", "extra"],
        ] {
            #expect(throws: UsageError.self, "\(words)") { try command(words) }
        }
    }

    @Test func watchSelectsKindsAsTraceDoes() throws {
        let watch = try #require(try command(["watch", "--kind", "shield", "--kind", "app"]) as? TraceWatch)
        #expect(watch.kinds == ["shield", "app"])
        #expect(watch.kinds.flatMap(TraceGet.selectors) == ["shield", "shield.", "app"])
        #expect(throws: UsageError.self) { try command(["watch", "--kind="]) }
    }

    private func notification(_ method: ServerNotification, _ params: JSONValue) -> ClarityClient.Notification {
        ClarityClient.Notification(method: method.rawValue, params: params, line: Data())
    }

    @Test func watchShowsAnEventAsTraceDoesAndADropAsWhatIsMissing() {
        let event = notification(
            .trace,
            ["seq": 12, "t": 300, "time": "x", "kind": "notification", "actor": "clarity.monitor", "device": "default",
             "title": "Awareness Nudge"])
        #expect(TraceWatch.line(for: event) == #"12  300  notification  clarity.monitor  title="Awareness Nudge""#)
        let dropped = notification(.traceDropped, ["device": "default", "dropped": 5, "from": 20, "to": 31])
        #expect(
            TraceWatch.line(for: dropped)
                == "… 5 events dropped (seq 20–31): this watch fell behind; clarityctl trace --since 19 --limit 12 shows them")
        #expect(TraceWatch.line(for: notification(.traceEnded, ["device": "default", "reason": "removed"])) == nil)
    }
}
