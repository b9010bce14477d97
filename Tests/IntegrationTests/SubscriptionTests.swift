import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// `subscribe` against a real daemon: trace events arrive as notifications on the subscriber's
/// connection, as `trace.get` gives them, and a subscriber that does not read holds up no one.
@Suite struct SubscriptionTests {
    private static let instagram = "com.burbn.instagram"

    private static func request(_ id: Int, _ method: String, _ params: JSONValue = [:]) -> String {
        ((try? JSONWire.encodeString(RPCRequest(id: .number(id), method: method, params: params).json)) ?? "") + "\n"
    }

    private func message(_ connection: RawConnection) throws -> JSONValue? {
        guard let line = try connection.readLine() else { return nil }
        return try JSONWire.decode(JSONValue.self, from: Data(line.utf8))
    }

    /// Subscribes on a connection of its own and returns it, the answer read.
    private func subscriber(_ daemon: DaemonProcess, _ params: JSONValue = [:]) throws -> RawConnection {
        let connection = try daemon.connect()
        try connection.send(Self.request(1, "subscribe", params))
        #expect(try message(connection)?["result"] == ["ok": true])
        return connection
    }

    /// Selects Instagram, opens it and lets 10 minutes pass: the friction path to the shield.
    private func frictionRun(_ daemon: DaemonProcess) throws {
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
        _ = try daemon.call("event", ["type": "app.open", "app": .string(Self.instagram)])
        _ = try daemon.call("clock.advance", ["seconds": 600])
    }

    /// Reads notifications until one of `kind` (`params.kind`) arrives; all of them, in order.
    private func notifications(_ connection: RawConnection, through kind: String) throws -> [JSONValue] {
        var seen: [JSONValue] = []
        while let next = try message(connection) {
            seen.append(next)
            if next["params"]?["kind"] == .string(kind) { break }
        }
        return seen
    }

    @Test func everyNewTraceEventArrivesAsTraceGetGivesIt() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let before = try daemon.call("trace.get", ["last": 1]).arrayValue?.first?["seq"]?.intValue ?? 0
        let connection = try subscriber(daemon)
        try frictionRun(daemon)
        let received = try notifications(connection, through: "shield.shown")
        let shown = try #require(received.last)
        #expect(received.allSatisfy { $0["method"] == "trace" && $0["id"] == nil && $0["params"]?["device"] == "default" })
        let events = try #require(try daemon.call("trace.get", ["since": .int(before)]).arrayValue)
        let withoutDevice = received.map { notification -> JSONValue in
            guard case .object(var members)? = notification["params"] else { return .null }
            members["device"] = nil
            return .object(members)
        }
        #expect(withoutDevice == Array(events.prefix(withoutDevice.count)), "the same events, in order, from the first after subscribe")
        #expect(received.first?["params"]?["seq"] == .int(before + 1))
        #expect(shown["params"]?["title"] == "Text someone instead")
        #expect(received.contains { $0["params"]?["kind"] == "monitor.threshold" })
    }

    @Test func kindsSelectWhatArrives() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let connection = try subscriber(daemon, ["kinds": ["shield.", "notification"]])
        try frictionRun(daemon)
        let received = try notifications(connection, through: "shield.shown")
        #expect(received.compactMap { $0["params"]?["kind"]?.stringValue } == ["notification", "shield.apply", "shield.shown"])
    }

    @Test func anUnknownTopicOrDeviceIsRefused() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let refusal = #expect(throws: RPCError.self) { try daemon.call("subscribe", ["topics": ["trace", "effects"]]) }
        #expect(refusal?.code == RPCError.Code.invalidParams)
        #expect(refusal?.data?["field"] == "topics[1]")
        let unknown = #expect(throws: RPCError.self) { try daemon.call("subscribe", ["device": "nowhere"]) }
        #expect(unknown?.code == RPCError.Code.noSuchDevice)
        let member = #expect(throws: RPCError.self) { try daemon.call("subscribe", ["kind": ["store.write"]]) }
        #expect(member?.data?["field"] == "kind")
    }

    @Test func removingTheDeviceEndsItsSubscriptions() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "lab"])
        let connection = try subscriber(daemon, ["device": "lab"])
        _ = try daemon.call("event", ["device": "lab", "type": "lock"])
        _ = try daemon.call("device.remove", ["device": "lab"])
        let locked = try message(connection)
        #expect(locked?["params"]?["kind"] == "app.state")
        #expect(locked?["params"]?["device"] == "lab")
        #expect(try message(connection) == ["jsonrpc": "2.0", "method": "trace.ended", "params": ["device": "lab", "reason": "removed"]])
    }

    @Test func afterUnsubscribeNothingMoreArrives() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let connection = try subscriber(daemon)
        try connection.send(Self.request(2, "unsubscribe"))
        #expect(try message(connection)?["result"] == ["ok": true])
        _ = try daemon.call("event", ["type": "lock"])
        try connection.send(Self.request(3, "daemon.ping"))
        #expect(try message(connection)?["id"] == 3, "the lock's event was not sent")
    }

    /// A subscriber that never reads: the device and another client go on at full speed, the
    /// daemon drops what does not fit, and once the subscriber reads it learns what it missed,
    /// then gets the events that follow.
    @Test func aSubscriberThatDoesNotReadHoldsUpNoOneAndLearnsWhatItMissed() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let idle = try subscriber(daemon, ["kinds": ["store.write"]])
        let value = String(repeating: "x", count: 64 * 1024)
        for index in 0..<40 {
            #expect(try daemon.call("store.set", ["key": .string("k\(index)"), "value": .string(value)]) == ["ok": true])
        }
        let last = try #require(try daemon.call("trace.get", ["last": 1]).arrayValue?.first?["seq"]?.intValue)

        var delivered: [Int] = []
        var dropped: JSONValue?
        while dropped == nil, let next = try message(idle) {
            if next["method"] == "trace.dropped" {
                dropped = next["params"]
            } else if let seq = next["params"]?["seq"]?.intValue {
                delivered.append(seq)
            }
        }
        let notice = try #require(dropped)
        let count = try #require(notice["dropped"]?.intValue)
        #expect(count > 0 && delivered.count + count == 40, "every write either delivered or counted")
        #expect(delivered.first.map { delivered == Array($0..<$0 + delivered.count) } == true, "no gap up to the notice")
        #expect(notice["from"]?.intValue == (delivered.last ?? 0) + 1)
        #expect(notice["to"]?.intValue == last)
        #expect(notice["device"] == "default")

        _ = try daemon.call("store.set", ["key": "after", "value": 1])
        let resumed = try message(idle)
        #expect(resumed?["params"]?["key"] == "after")
        #expect(resumed?["params"]?["seq"]?.intValue == last + 1)
    }
}
