import BuiltInApps
import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// The app's own data (its Core Data / Room store, preferences, account) goes into the device's
/// snapshot as sorted-key JSON and comes back (`SimulatedDevice(restoring:catalog:servers:)`): the
/// restored app shows the same dashboard, does not sign up again and goes on where it stopped.
@Suite struct PersistenceTests {
    private func dashboard(_ device: SimulatedDevice) throws -> ThePhoneState {
        let encoder = JSONEncoder()
        return try JSONDecoder().decode(ThePhoneState.self, from: encoder.encode(AnyState(try device.state().appState)))
    }

    /// The kinds of what a step caused, without reads and clock bookkeeping.
    private func kinds(_ outcome: DeviceOutcome) -> [String] {
        outcome.effects.map(\.entry.payload).filter { !["store.read", "clock.advance"].contains($0.kind) }.map {
            if case .networkRequest(let method, let path, _, _) = $0 { return "\(method) \(path)" }
            if case .app(let event, let fields) = $0 { return "\(event) \(fields["state"]?.stringValue ?? "")" }
            return $0.kind
        }
    }

    @Test func anIPhoneComesBackWithItsDataAndGoesOn() throws {
        let servers = Servers()
        let device = try TestDevice.iPhone(servers: servers)
        try device.verifySetup()
        try device.intent("group.create", ["name": "Family"], effects: [request("POST", "/groups", 201)])
        try device.intent("setTemptations", ["intensity": "low"], effects: [request("PUT", "/temptations/settings")])
        try device.send(.appOpen(app: thePhone), effects: [opened, healthSignpost(nil), statusReport(), syncRequest])
        try device.send(.appClose(app: thePhone), effects: [closed])
        try device.send(.networkOffline, effects: [.network(online: false)])
        try device.lockRecorded(offline: true)
        let before = try device.phone()
        #expect(before.unsynced == 1 && before.events == 3)

        let snapshot = try device.device.snapshot()
        let appData = try #require(snapshot.appData)
        #expect(appData == (try PersistentData.encode(JSONDecoder().decode(ThePhoneMainApp.Saved.self, from: appData))))
        let restored = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.thePhone]), servers: servers)
        #expect(try dashboard(restored) == before)
        #expect(!restored.traceSoFar.contains { if case .networkRequest = $0.payload { $0.sequence > snapshot.traceSequence ?? 0 } else { false } })

        // Back online the restored app syncs; its automations are the system's and run again.
        #expect(kinds(try restored.apply(.networkOnline)) == ["network", "POST /events/sync"])
        #expect(try dashboard(restored).unsynced == 0)
        _ = try restored.advance(seconds: 1800)
        #expect(kinds(try restored.apply(.unlock)) == ["app.state", "automation", "eventRecorded ", "POST /events/sync"])
        #expect(try dashboard(restored).week.totalPoints == 34.01)
    }

    /// A verification window open at the snapshot gets its timer back: it still ends at 120 s.
    @Test func anOpenVerificationWindowSurvivesARestore() throws {
        let device = try TestDevice.iPhone()
        try device.intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try device.advance(seconds: 60)
        let failing = try SimulatedDevice(restoring: try device.device.snapshot(), catalog: AppCatalog([.thePhone]))
        #expect(try dashboard(failing).setup?.state == "awaitingVerification")
        #expect(kinds(try failing.advance(seconds: 59)) == [])
        #expect(kinds(try failing.advance(seconds: 1)) == ["setup failed"])

        let verifying = try SimulatedDevice(restoring: try device.device.snapshot(), catalog: AppCatalog([.thePhone]))
        _ = try verifying.apply(.lock)
        _ = try verifying.apply(.unlock)
        #expect(try dashboard(verifying).setup?.state == "verified")
        #expect(kinds(try verifying.advance(seconds: 120)) == [])
    }

    @Test func anAndroidPhoneComesBackWithItsRoomTable() throws {
        let servers = Servers()
        let device = try TestDevice.androidPhone(servers: servers)
        try device.screenOff()
        try device.advance(minutes: 30)
        try device.userPresent()
        try device.screenOff()
        let before = try device.phone()
        let restored = try SimulatedDevice(restoring: try device.device.snapshot(), catalog: AppCatalog([.thePhone]), servers: servers)
        #expect(try dashboard(restored) == before)
        _ = try restored.advance(seconds: 61)
        #expect(kinds(try restored.apply(.unlock)) == ["app.state", "eventRecorded ", "work", "work", "POST /events/sync", "work"])
        let after = try dashboard(restored)
        #expect(after.events == 4 && after.unsynced == 0 && after.week.totalPoints == 34.18)
    }
}

/// Encodes an existential at the top level.
private struct AnyState: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
