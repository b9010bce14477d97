import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// What clients can make the daemon hold is bounded in bytes, not only in counts
/// (docs/protocol.md, Transport and framing; docs/tracing.md): a trace of large values, answers
/// nobody reads, subscriptions asking for nonsense.
@Suite struct BoundedMemoryTests {
    /// A 900 KB string: one `store.set` of it fits a request line.
    static let large = JSONValue.string(String(repeating: "x", count: 900_000))

    private func write(_ count: Int, to daemon: DaemonProcess) throws {
        for index in 0..<count {
            _ = try daemon.call("store.set", ["key": .string("big\(index % 3)"), "value": Self.large])
        }
    }

    /// 700 writes of a 900 KB value kept 630 MB: the trace held every value, and its 100 000
    /// entries could have held 90 GB. Now it keeps what fits in 24 MiB, the newest.
    @Test func theTraceOfLargeValuesKeepsWhatFitsItsBytes() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try write(40, to: daemon)
        let writes = try #require(daemon.call("trace.get", ["kinds": ["store.write"]]).arrayValue)
        #expect((20...27).contains(writes.count), "\(writes.count) large writes kept")
        #expect(writes.last?["value"] == Self.large)
        let all = try #require(daemon.call("trace.get").arrayValue)
        #expect((all.first?["seq"]?.intValue ?? 0) > 4, "the oldest events were dropped")
        #expect(all.last?["seq"]?.intValue == (try daemon.call("trace.get", ["last": 1]).arrayValue?.first?["seq"]?.intValue))
    }

    /// Four connections asking for `trace.export` and never reading held 3.7 GB. Now an answer
    /// over 1 MiB that would take the answers clients have not read past 64 MiB is withheld
    /// (-32004), and `daemon.status` tells how much waits unread.
    @Test func largeAnswersNobodyReadsAreBoundedByTheDaemonsCap() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try write(26, to: daemon)
        var readers: [RawConnection] = []
        for (index, floor) in [20_000_000, 40_000_000].enumerated() {
            let reader = try daemon.connect(receiveTimeout: 60)
            try reader.request(id: index, "trace.export")
            readers.append(reader)
            #expect(try daemon.eventually { (try daemon.call("daemon.status")["answers"]?["unsent"]?.intValue ?? 0) > floor })
        }
        let third = try daemon.connect(receiveTimeout: 60)
        let withheld = try #require(try third.call(id: 3, "trace.export"))
        #expect(withheld["error"]?["code"] == .int(RPCError.Code.requestTooLarge), "\(withheld)")
        #expect(withheld["error"]?["data"]?["limit"] == .int(64 * 1024 * 1024))
        #expect((withheld["error"]?["data"]?["bytes"]?.intValue ?? 0) > 20_000_000)
        let answer = try #require(try readers[0].answer())
        #expect(answer["result"]?["traceEvents"]?.arrayValue?.isEmpty == false)
        #expect(try daemon.call("daemon.status")["answers"]?["limit"] == .int(64 * 1024 * 1024))
    }

    /// `subscribe` took 50 000 kinds (900 MB for 200 subscribers, every write 300 times slower),
    /// `[]`, `"."` and duplicated topics. Now what selects nothing is refused by its path.
    @Test func subscriptionsRefuseNonsense() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let cases: [(JSONValue, String, String)] = [
            (["kinds": []], "kinds", "at least one kind"),
            (["kinds": ["."]], "kinds[0]", "no kind of trace event"),
            (["kinds": ["storage.write"]], "kinds[0]", "did you mean store.write?"),
            (["kinds": [.string(String(repeating: "k", count: 100_000))]], "kinds[0]", "longer than 64 bytes"),
            (["kinds": .array(Array(repeating: "store.write", count: 65))], "kinds", "at most 64"),
            (["kinds": ["store.write", "monitor.", "store.write"]], "kinds[2]", "listed twice"),
            (["topics": ["trace", "trace"]], "topics[1]", "listed twice"),
        ]
        for (params, field, reason) in cases {
            do {
                _ = try daemon.call("subscribe", params)
                Issue.record("\(params) was taken")
            } catch let error as RPCError {
                #expect(error.code == RPCError.Code.invalidParams)
                #expect(error.data?["field"] == .string(field), "\(error)")
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
        #expect(try daemon.call("subscribe", ["kinds": ["monitor", "monitor.", "app", "store.write"]])["ok"] == true)
        #expect(throws: RPCError.self) { try daemon.call("trace.get", ["kinds": ["storage.write"]]) }
    }
}
