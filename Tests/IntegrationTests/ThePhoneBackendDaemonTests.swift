import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// The Phone's backend hosted by the daemon (docs/apps/thephone-backend.md, "Hosted in the
/// daemon"): one `default` backend shared by every `thephone` device, `backend.*` in the contract's
/// names, and everything — the backend and each device's view of it — the same after `kill -9`.
@Suite struct ThePhoneBackendDaemonTests {
    /// An iPhone with both automations (the lock one is the project's choice), verified.
    private func iPhone(_ name: String, _ zone: String, on daemon: DaemonProcess) throws {
        _ = try daemon.call("device.create", ["device": .string(name), "app": "thephone", "timezone": .string(zone), "start": "2026-01-05T00:00:00Z"])
        for trigger in ["unlock", "lock"] {
            _ = try daemon.call("intent", ["device": .string(name), "name": "installAutomation", "args": ["trigger": .string(trigger)]])
        }
        _ = try daemon.call("event", ["device": .string(name), "type": "lock"])
        _ = try daemon.call("intent", ["device": .string(name), "name": "setup.begin", "args": [:]])
        _ = try daemon.call("event", ["device": .string(name), "type": "unlock"])
    }

    /// A 30-minute lock on each device, in step: 34.01 points each for the iPhone with the lock
    /// automation and for the Android phone; the unlock-only iPhone scores nothing.
    private func lockHalfAnHour(_ devices: [String], on daemon: DaemonProcess) throws {
        for device in devices { _ = try daemon.call("event", ["device": .string(device), "type": "lock"]) }
        for device in devices { _ = try daemon.call("clock.advance", ["device": .string(device), "seconds": 1800]) }
        for device in devices { _ = try daemon.call("event", ["device": .string(device), "type": "unlock"]) }
    }

    @Test func threePhonesOneAndroidShareTheDefaultBackendAndSurviveKillNine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try iPhone("alice", "UTC", on: daemon)
        _ = try daemon.call("device.create", ["device": "bob", "app": "thephone", "platform": "android", "timezone": "Asia/Tokyo", "start": "2026-01-05T00:00:00Z"])
        _ = try daemon.call("device.create", ["device": "carol", "app": "thephone", "timezone": "America/Los_Angeles", "start": "2026-01-05T00:00:00Z"])
        _ = try daemon.call("intent", ["device": "carol", "name": "installAutomation", "args": [:]])

        let users = try daemon.call("backend.users", [:])
        #expect(users.arrayValue?.map { "\($0["username"]?.stringValue ?? "") \($0["platform"]?.stringValue ?? "")" } == [
            "alice ios", "bob android", "carol ios",
        ])
        let group = try #require(try daemon.call("intent", ["device": "alice", "name": "group.create", "args": ["name": "week"]])["result"])
        for member in ["bob", "carol"] {
            _ = try daemon.call("intent", ["device": .string(member), "name": "group.join", "args": ["code": group["code"] ?? .null]])
        }
        try lockHalfAnHour(["alice", "bob", "carol"], on: daemon)
        _ = try daemon.call("intent", ["device": "alice", "name": "sync", "args": [:]])

        let groupId = try #require(group["groupId"])
        let board = try daemon.call("backend.leaderboard", ["group": groupId])
        let rows = try #require(board.arrayValue)
        #expect(rows.map { $0["username"] } == ["alice", "bob", "carol"])
        #expect(rows.map { $0["totalPoints"] } == [34.01, 34.01, 0])
        #expect(rows.map { $0["status"] } == ["verified", "pending", "pending"], "Android never reports a status (seed)")
        #expect(rows.map { $0["flagged"] } == [false, true, true])
        // Android records from the start (no automation); its lock reaches the server with the unlock's sync.
        #expect(try daemon.call("backend.events", ["device": "bob"]).arrayValue?.map { $0["eventType"] } == ["lock", "unlock"])
        #expect(try daemon.call("backend.events", ["device": "carol"]).arrayValue?.map { $0["eventType"] } == ["unlock"])

        let before = try ["alice", "bob", "carol"].map { try daemon.call("device.state", ["device": .string($0)])["app"] }
        let backendBefore = try ["backend.users", "backend.groups"].map { try daemon.call($0, [:]) }
        let eventsBefore = try ["alice", "bob", "carol"].map { try daemon.call("backend.events", ["user": .string($0)]) }
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        let after = try ["alice", "bob", "carol"].map { try daemon.call("device.state", ["device": .string($0)])["app"] }
        #expect(after == before, "each device replays its journal with the answers its requests got")
        #expect(try ["backend.users", "backend.groups"].map { try daemon.call($0, [:]) } == backendBefore)
        #expect(try ["alice", "bob", "carol"].map { try daemon.call("backend.events", ["user": .string($0)]) } == eventsBefore)
        #expect(try daemon.call("backend.leaderboard", ["group": groupId]) == board)

        // Still one backend after the restart: a new lock reaches it, and nothing was stored twice.
        try lockHalfAnHour(["alice"], on: daemon)
        let aliceEvents = try daemon.call("backend.events", ["user": "alice"]).arrayValue ?? []
        #expect(aliceEvents.count == (eventsBefore[0].arrayValue?.count ?? 0) + 2)
        #expect(Set(aliceEvents.compactMap { $0["clientId"]?.stringValue }).count == aliceEvents.count)
    }

    @Test func backendMethodsNameWhatTheyCannotFind() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        #expect(try daemon.call("backend.list", [:]) == [])
        #expect(daemon.error(calling: "backend.now", [:])?.data?["field"] == "backend", "no backend before the first thephone device")
        _ = try daemon.call("device.create", ["device": "alice", "app": "thephone"])
        let list = try daemon.call("backend.list", [:])
        #expect(list.arrayValue?.first?["backend"] == "default" && list.arrayValue?.first?["users"] == 1)
        #expect(try daemon.call("backend.now", [:])["time"] == "2026-01-05T09:00:00.000Z")
        #expect(daemon.error(calling: "backend.events", ["user": "nobody"])?.data?["field"] == "user")
        #expect(daemon.error(calling: "backend.events", ["device": "nobody"])?.data?["field"] == "device")
        #expect(daemon.error(calling: "backend.leaderboard", ["group": "nope"])?.data?["field"] == "group")
        #expect(daemon.error(calling: "backend.users", ["backend": "other"])?.data?["field"] == "backend")
        #expect(daemon.error(calling: "backend.sync", ["user": "alice", "events": [["id": "x", "eventType": "lock", "timestamp": 0, "source": "manual"]]])?.data?["field"] == "events")
        #expect(daemon.error(calling: "device.create", ["device": "k", "app": "scrollkitty", "platform": "android"])?.data?["field"] == "platform")
        #expect(daemon.error(calling: "device.create", ["device": "k", "app": "thephone", "platform": "windows"])?.data?["field"] == "platform")

        // A device naming another backend gets a server of its own.
        _ = try daemon.call("device.create", ["device": "eve", "app": "thephone", "config": ["backend": "staging"]])
        #expect(try daemon.call("backend.list", [:]).arrayValue?.map { $0["backend"] } == ["default", "staging"])
        #expect(try daemon.call("backend.users", ["backend": "staging"]).arrayValue?.map { $0["username"] } == ["eve"])
        #expect(daemon.error(calling: "device.create", ["device": "x", "app": "thephone", "config": ["backend": "../etc"]])?.data?["field"] == "config.backend")
    }
}
