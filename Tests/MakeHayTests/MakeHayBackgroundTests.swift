import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import MakeHay

/// Background delivery (seed 003, Story 8; docs/apps/makehay.md, "The gate"): out of memory, the
/// app hears of a sample only when the system relaunches it, `healthBackgroundDeliverySeconds`
/// after the first undelivered one — the gap Story 8 narrows but does not close: until then the
/// shield stays.
@Suite struct MakeHayBackgroundTests {
    private let terminated: [Effect] = [.appTerminate]
    private let makeHay = "com.makehay.app"

    @Test func outOfMemoryTheShieldStaysUntilTheSystemRelaunchesTheApp() throws {
        let device = try TestDevice.makeHay()
        try device.send(.appTerminate(app: makeHay), effects: terminated)
        #expect(try device.makeHayState().inMemory == false)
        try device.send(.healthSample(kind: .steps, value: 12_000), effects: [.healthSample(kind: "steps", value: 12_000)])
        try device.advance(minutes: 59, effects: [])
        #expect(try device.shields().effective.applications == [instagram], "the goal is reached; the shield stays")
        try device.advance(
            minutes: 1,
            effects: [.appLaunch(reason: "healthDelivery"), .shieldClear(store: "default")])
        let state = try device.makeHayState()
        #expect(state.inMemory && !state.blocked && state.lastEvaluation?.trigger == .observer)
        try device.walk(100, effects: [])
    }

    /// A reboot ends the app's process as `app.terminate` does, so the `.hourly` gap holds after
    /// it: the shield stays until the system relaunches the app (it once stayed in memory and
    /// lifted the shield at the sample).
    @Test func afterARebootTheShieldStaysUntilTheSystemRelaunchesTheApp() throws {
        let device = try TestDevice.makeHay()
        try device.send(.reboot, effects: [.appTerminate, .appState(locked: true, foregroundApp: nil, shieldShown: false)])
        #expect(try device.makeHayState().inMemory == false)
        try device.send(.healthSample(kind: .steps, value: 12_000), effects: [.healthSample(kind: "steps", value: 12_000)])
        try device.advance(minutes: 59, effects: [])
        #expect(try device.shields().effective.applications == [instagram], "the goal is reached; the shield stays")
        try device.advance(minutes: 1, effects: [.appLaunch(reason: "healthDelivery"), .shieldClear(store: "default")])
        #expect(try device.makeHayState().lastEvaluation?.trigger == .observer)
    }

    /// Opening the app launches it again (then it becomes active and evaluates).
    @Test func openingATerminatedAppLaunchesItAndEvaluates() throws {
        let device = try TestDevice.makeHay()
        try device.send(.appTerminate(app: makeHay), effects: terminated)
        try device.send(.healthSample(kind: .steps, value: 10_000), effects: [.healthSample(kind: "steps", value: 10_000)])
        try device.send(
            .appOpen(app: makeHay),
            effects: [
                .appLaunch(reason: "open"),
                .appState(locked: false, foregroundApp: makeHay, shieldShown: false),
                .shieldClear(store: "default"),
            ])
        #expect(try device.makeHayState().lastEvaluation?.trigger == .appActive)
        try device.advance(minutes: 60, effects: [])
    }

    @Test func terminatingWhatIsNotRunningOrNotTheAppIsRefused() throws {
        let device = try TestDevice.makeHay()
        #expect(throws: DeviceError.invalidArgument(field: "app", reason: "not this device's main app (com.makehay.app)")) {
            try device.send(.appTerminate(app: instagram))
        }
        try device.send(.appTerminate(app: makeHay), effects: terminated)
        #expect(throws: DeviceError.refused(reason: "notRunning", message: "com.makehay.app is not in memory: app.open launches it")) {
            try device.send(.appTerminate(app: makeHay))
        }
    }

    /// A snapshot keeps the app out of memory, the samples and the relaunch that is due.
    @Test func aSnapshotKeepsTheTerminatedAppAndItsDueRelaunch() throws {
        let device = try TestDevice.makeHay()
        try device.send(.appTerminate(app: makeHay), effects: terminated)
        try device.send(.healthSample(kind: .steps, value: 10_000), effects: [.healthSample(kind: "steps", value: 10_000)])
        let snapshot = try device.device.snapshot()
        #expect(snapshot.mainAppInMemory == false)
        #expect(snapshot.health?.relaunchDueMilliseconds == 3_600_000)
        let restored = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.makeHay]))
        let outcome = try restored.advance(seconds: 3600)
        #expect(outcome.effects.map(\.entry.payload.kind).filter { $0 != "store.read" && !$0.hasPrefix("clock") } == ["app.launch", "shield.clear"])
        #expect(try restored.shields().effective.applications.isEmpty)
    }

    /// Denied (or never answered) read access: queries succeed with nothing (Apple hides it).
    @Test func deniedHealthAccessReadsZeroAndKeepsTheBlock() throws {
        var config = DeviceConfig()
        config.healthAuthorization = .denied
        let device = try TestDevice.makeHay(config: config)
        try device.walk(20_000, effects: [])
        #expect(try device.makeHayState().lastEvaluation?.value == 0)
        #expect(try device.shields().effective.applications == [instagram])
    }

    @Test func theDeliveryDelayIsConfigurable() throws {
        var config = DeviceConfig()
        config.healthBackgroundDeliverySeconds = 60
        let device = try TestDevice.makeHay(config: config)
        try device.send(.appTerminate(app: makeHay), effects: terminated)
        try device.send(.healthSample(kind: .steps, value: 10_000), effects: [.healthSample(kind: "steps", value: 10_000)])
        try device.advance(seconds: 60, effects: [.appLaunch(reason: "healthDelivery"), .shieldClear(store: "default")])
    }
}
