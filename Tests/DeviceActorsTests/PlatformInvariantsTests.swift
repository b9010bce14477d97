import Clarity
import Foundation
import Testing

@testable import DeviceActors
@testable import ExtensionSandbox
@_spi(Host) @testable import SimulatediOS

/// The platform's own invariant, fed traces directly: a shield shows only over the frontmost app
/// of an unlocked device, whichever app a scenario runs.
@Suite struct PlatformInvariantsTests {
    private struct Context: InvariantContext {
        var appName = "clarity"
        var calendar = DeviceCalendar(start: DeviceCalendar.parseISO("2026-01-05T09:00:00Z")!, timeZone: TimeZone(identifier: "UTC")!)
        var catalog = CategoryCatalog.builtIn
        var traceSoFar: ArraySlice<TraceEntry<Effect>> = []
        func storeValue(suite: String, key: String) throws(DeviceError) -> StoredValue? { nil }
        func shieldStores() throws(DeviceError) -> [String: ShieldSettings] { [:] }
    }

    private let shield = ShieldConfiguration.systemDefault(appName: "Instagram")

    private func verdict(_ payloads: [Effect]) throws -> String? {
        var check = PlatformInvariants.shieldShownOnlyOverTheFrontmostApp.start()
        let entries = payloads.enumerated().map { index, payload in
            TraceEntry(sequence: index + 1, time: VirtualInstant(milliseconds: 0), actor: "springBoard", sandbox: nil, payload: payload)
        }
        return try check.violation(in: Context(), newEntries: entries[...])
    }

    private func state(_ app: String?, locked: Bool = false) -> Effect {
        .appState(locked: locked, foregroundApp: app, shieldShown: false)
    }

    @Test func aShieldOverTheFrontmostAppIsFine() throws {
        #expect(try verdict([state(instagram), .shieldShown(app: instagram, configuration: shield, source: .extension)]) == nil)
    }

    @Test func aShieldOverAClosedAnotherOrALockedAppIsFlagged() throws {
        let shown = Effect.shieldShown(app: instagram, configuration: shield, source: .extension)
        #expect(
            try verdict([state(instagram), state(nil), shown])
                == "a shield was shown over \(instagram) while no app is frontmost (trace seq 3)")
        #expect(
            try verdict([state("com.apple.MobileSMS"), shown])
                == "a shield was shown over \(instagram) while com.apple.MobileSMS is frontmost (trace seq 2)")
        #expect(
            try verdict([state(instagram, locked: true), shown])
                == "a shield was shown over \(instagram) while the device is locked (trace seq 2)")
    }

    @Test func everyScenarioChecksIt() {
        func scenario(_ apps: [AppRegistration]) -> Scenario {
            Scenario(
                name: "s", app: apps[0], otherApps: Array(apps.dropFirst()), start: Date(timeIntervalSince1970: 0),
                timeZone: TimeZone(identifier: "UTC")!, timeZoneName: "UTC", seed: 0, config: DeviceConfig(), steps: [],
                invariants: [])
        }
        let bare = AppRegistration(
            description: AppDescription(name: "bare", bundleIdentifier: nil, appGroup: nil, available: true, intents: [])
        ) { ClarityApp(platform: $0, executors: $1, config: ClarityConfig()) }
        #expect(scenario([.clarity]).scenarioInvariants.first?.invariant.name == "shieldShownOnlyOverTheFrontmostApp")
        #expect(scenario([bare]).scenarioInvariants.map(\.invariant.name) == ["shieldShownOnlyOverTheFrontmostApp"])
        #expect(
            scenario([bare, .clarity]).scenarioInvariants.map(\.invariant.name)
                == ["shieldShownOnlyOverTheFrontmostApp"] + ClarityInvariants.all.map(\.name),
            "the platform's once, then each installed app's")
    }
}
