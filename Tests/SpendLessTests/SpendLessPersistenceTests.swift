import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import SpendLess

/// The running intervention lives in the main app's memory, which is the device's: a snapshot
/// (the daemon's compaction) keeps it, so a restart from one is as invisible as a journal replay.
@Suite struct SpendLessPersistenceTests {
    @Test func aRunningInterventionSurvivesASnapshot() throws {
        let device = try TestDevice(app: .spendLess, exhaustivity: .off)
        try device.intent("intervention.start", ["type": "fullFlow"])
        try device.intent("intervention.next")
        let before = try device.appState(as: SpendLessState.self)
        #expect(before.intervention?.step == "haltCheck")
        let snapshot = try device.device.snapshot()
        #expect(snapshot.appData != nil)
        let restored = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.spendLess]))
        let after = try JSONDecoder().decode(
            SpendLessState.self, from: JSONEncoder().encode(AnyEncodableState(value: try restored.state().appState)))
        #expect(after == before)
        #expect(snapshot.notificationAuthorization == .authorized, "asked at launch")
    }
}

/// `device.state.app` as JSON, to decode it back into the app's state type.
private struct AnyEncodableState: Encodable {
    let value: any Encodable & Sendable
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// The system ending SpendLess's process (`app.terminate`) loses the intervention on screen (the
/// seed's in-memory `InterventionManager`); the App Group's counts stay.
@Suite struct SpendLessTerminationTests {
    @Test func terminatingTheAppLosesTheRunningIntervention() throws {
        let device = try TestDevice(app: .spendLess, exhaustivity: .off)
        try device.intent("intervention.start", ["type": "quickPause"])
        try device.intent("intervention.finish", ["outcome": "resisted"])
        try device.intent("intervention.start", ["type": "fullFlow"])
        try device.send(.appTerminate(app: "com.spendless.app"), effects: [.appTerminate])
        let state = try device.appState(as: SpendLessState.self)
        #expect(state.intervention == nil)
        #expect(state.resistedCount == 1)
        try device.send(.appOpen(app: "com.spendless.app"), effects: [.appLaunch(reason: "open")])
        try device.intent("intervention.start", ["type": "breathing"])
        #expect(try device.appState(as: SpendLessState.self).intervention?.step == "breathing")
    }

    /// A reboot ends every process, the app's too: the intervention is gone (it once survived
    /// the reboot), the counts stay, and opening the app launches it again.
    @Test func aRebootLosesTheRunningIntervention() throws {
        let device = try TestDevice(app: .spendLess, exhaustivity: .off)
        try device.intent("intervention.start", ["type": "quickPause"])
        try device.intent("intervention.finish", ["outcome": "resisted"])
        try device.intent("intervention.start", ["type": "fullFlow"])
        try device.send(.reboot)
        let state = try device.appState(as: SpendLessState.self)
        #expect(state.intervention == nil)
        #expect(state.resistedCount == 1)
        try device.send(.unlock)
        try device.send(.appOpen(app: "com.spendless.app"))
        #expect(try device.device.snapshot().mainAppInMemory == true)
    }
}
