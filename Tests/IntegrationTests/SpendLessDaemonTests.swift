import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SpendLess over the socket (docs/apps/spendless.md): the contract's names, its refusal codes, and
/// a daemon restart, which is invisible: the App Group, the schedules and the running intervention
/// are all still there.
@Suite struct SpendLessDaemonTests {
    private static let amazon = "com.amazon.Amazon"
    private static let shein = "com.shein.sheinapp"

    /// Calls `method` on device `shop`.
    private func call(_ daemon: DaemonProcess, _ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        try daemon.call(method, .object(params.merging(["device": "shop"]) { $1 }))
    }

    private func app(_ daemon: DaemonProcess) throws -> JSONValue {
        try call(daemon, "device.state")["app"] ?? .null
    }

    /// `(code, data.field or data.reason)` of a refused call.
    private func refusal(_ body: () throws -> JSONValue) -> (Int, String?)? {
        do {
            _ = try body()
            return nil
        } catch let error as RPCError {
            return (error.code, error.data?["field"]?.stringValue ?? error.data?["reason"]?.stringValue)
        } catch {
            return nil
        }
    }

    private func start(_ daemon: DaemonProcess) throws {
        _ = try daemon.call("device.create", ["device": "shop", "app": "spendless", "start": "2026-01-05T09:00:00Z"])
        _ = try call(daemon, "intent", ["name": "selectApps", "args": ["apps": [.string(Self.amazon), .string(Self.shein)]]])
        _ = try call(daemon, "event", ["type": "app.open", "app": .string(Self.amazon)])
        #expect(try call(daemon, "shield.config", ["app": .string(Self.amazon)])["title"] == "Take a breath")
        _ = try call(daemon, "event", ["type": "shield.press", "app": .string(Self.amazon), "button": "primary"])
        #expect(try app(daemon)["interventionTriggered"] == true)
        #expect(try app(daemon)["triggeredApp"] == .string(Self.amazon))
        _ = try call(daemon, "event", ["type": "app.open", "app": "com.spendless.app"])
    }

    @Test func theFlagStartsAnInterventionAndTheRefusalsUseTheContractsCodes() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try start(daemon)
        let state = try app(daemon)
        #expect(state["interventionTriggered"] == false)
        #expect(
            state["intervention"]
                == ["type": "fullFlow", "step": "breathing", "app": .string(Self.amazon), "startedAt": "2026-01-05T09:00:00Z"])
        #expect(refusal { try call(daemon, "intent", ["name": "intervention.start", "args": [:]]) }! == (-32003, "interventionActive"))
        #expect(refusal { try call(daemon, "intent", ["name": "intervention.next", "args": ["choice": "logItem"]]) }! == (-32602, "args.choice"))
        #expect(refusal { try call(daemon, "intent", ["name": "intervention.finish", "args": ["outcome": "maybe"]]) }! == (-32602, "args.outcome"))
        #expect(refusal { try call(daemon, "intent", ["name": "setInterventionType", "args": ["type": "yoga"]]) }! == (-32602, "args.type"))
        #expect(refusal { try call(daemon, "intent", ["name": "waitingList.resolve", "args": ["id": 4, "decision": "buried"]]) }! == (-32602, "args.id"))
        #expect(refusal { try call(daemon, "intent", ["name": "buyNow", "args": [:]]) }?.0 == -32002)
        _ = try call(daemon, "intent", ["name": "intervention.finish", "args": ["outcome": "resisted"]])
        #expect(refusal { try call(daemon, "intent", ["name": "intervention.next", "args": [:]]) }! == (-32003, "noIntervention"))
        _ = try call(daemon, "intent", ["name": "intervention.start", "args": ["type": "quickPause"]])
        #expect(refusal { try call(daemon, "intent", ["name": "intervention.finish", "args": ["outcome": "access"]]) }! == (-32003, "noApp"))
        _ = try call(daemon, "intent", ["name": "intervention.next", "args": [:]])
        #expect(refusal { try call(daemon, "intent", ["name": "intervention.next", "args": [:]]) }! == (-32003, "interventionComplete"))
        #expect(try app(daemon)["resistedCount"] == 1)
    }

    /// `kill -9` during an access session with an item on the waiting list and a panic-button
    /// intervention running: after the restart all of it is there, and DeviceActivity still ends
    /// the session and posts the reminder.
    @Test func theAppGroupAndTheSchedulesSurviveKillNine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try start(daemon)
        _ = try call(daemon, "intent", ["name": "logItem", "args": ["name": "Boots", "price": 120]])
        _ = try call(daemon, "intent", ["name": "intervention.finish", "args": ["outcome": "access"]])
        _ = try call(daemon, "intent", ["name": "intervention.start", "args": [:]])
        #expect(try app(daemon)["accessSession"] == ["app": .string(Self.amazon), "endsAt": "2026-01-05T09:10:00Z"])
        #expect(try call(daemon, "shields.get")["stores"]?["shopping"]?["applications"] == [.string(Self.shein)])
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)

        try daemon.start()
        var state = try app(daemon)
        #expect(state["intervention"] == ["type": "fullFlow", "step": "breathing", "app": .null, "startedAt": "2026-01-05T09:00:00Z"])
        #expect(state["accessSession"] == ["app": .string(Self.amazon), "endsAt": "2026-01-05T09:10:00Z"])
        #expect(state["waitingList"]?.arrayValue?.map { $0["name"] } == ["Boots"])
        _ = try call(daemon, "clock.advance", ["seconds": 600])
        #expect(try app(daemon)["accessSession"] == .null)
        #expect(
            try call(daemon, "shields.get")["stores"]?["shopping"]?["applications"] == [.string(Self.amazon), .string(Self.shein)])
        _ = try call(daemon, "clock.advance", ["seconds": 604_800])
        state = try app(daemon)
        #expect(state["waitingList"]?.arrayValue?.first?["ready"] == true)
        let notifications = try call(daemon, "notifications.list").arrayValue ?? []
        #expect(notifications.contains { $0["title"] == "Still want it?" && $0["body"]?.stringValue?.hasPrefix("Boots") == true })
    }
}
