import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// `shield.applications` and `shield.applicationCategories` are two settings, written one at a
/// time as on iOS: each write is its own platform call and trace entry, and leaves the other
/// setting as it was, so an exploration can interleave another process between the two.
@Suite struct ShieldSettingsTests {
    private let instagram = "com.burbn.instagram"

    @Test func eachSettingIsWrittenOnItsOwnAndKeepsTheOther() throws {
        let device = try makeClarityDevice()
        let store = device.platform.managedSettingsStore(named: "split")
        let before = device.trace.recorder.lastSequence
        try device.run {
            try await store.setShieldApplications([self.instagram])
            try await store.setShieldApplicationCategories(.all(except: []))
        }
        #expect(try device.shields().stores["split"] == ShieldSettings(applications: [instagram], applicationCategories: .all(except: [])))
        try device.run { try await store.setShieldApplications(nil) }
        #expect(try device.shields().stores["split"] == ShieldSettings(applications: [], applicationCategories: .all(except: [])))
        try device.run { try await store.setShieldApplicationCategories(nil) }
        #expect(try device.shields().stores["split"] == nil, "both settings gone: the store is empty")
        let written = device.trace.recorder.entries(after: before).map(\.payload)
        #expect(
            written == [
                .shieldApply(store: "split", applications: [instagram], categories: .none),
                .shieldApply(store: "split", applications: [instagram], categories: .all(except: [])),
                .shieldApply(store: "split", applications: [], categories: .all(except: [])),
                .shieldClear(store: "split"),
            ])
    }

    @Test func aSettingHasApplesLimits() throws {
        let device = try makeClarityDevice()
        let store = device.platform.managedSettingsStore(named: "split")
        let tooMany = Set((0...ManagedSettingsAgent.maxApplications).map { "com.example.app\($0)" })
        let refusal = #expect(throws: DeviceError.self) { try device.run { try await store.setShieldApplications(tooMany) } }
        guard case .refused(let reason, _)? = refusal else { Issue.record("\(String(describing: refusal))"); return }
        #expect(reason == "tooManyApplications")
        #expect(try device.shields().stores["split"] == nil)
    }
}
