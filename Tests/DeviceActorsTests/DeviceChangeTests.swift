import DeviceTesting
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// What a request changed (``SimulatedDevice/changes(since:)``): the daemon journals every
/// change, and waits for the disk only for durable ones — a property of each effect kind.
@Suite struct DeviceChangeTests {
    private func change(_ device: SimulatedDevice, _ request: () throws -> Void) rethrows -> DeviceChange {
        let before = device.mark
        try request()
        return device.changes(since: before)
    }

    @Test func readsChangeNothing() throws {
        let device = try makeClarityDevice()
        #expect(try change(device) { _ = try device.state() } == .none)
        #expect(try change(device) { _ = try device.storeDump(suite: nil) } == .none)
        #expect(try change(device) { _ = try device.activities() } == .none)
        #expect(change(device) { _ = device.traceEntries(since: nil, limit: nil) } == .none)
    }

    /// `device.config` that leaves the config as it is (`raceDetector: false` when it is off)
    /// changes nothing: it is not journalled, and does not make a session unrecordable (issue 38).
    @Test func aConfigThatLeavesItAsItIsChangesNothing() throws {
        let device = try makeClarityDevice()
        var overrides = DeviceConfig.Overrides()
        overrides.raceDetector = false
        overrides.quirks = [:]
        #expect(try change(device) { _ = try device.updateConfig(overrides) } == .none)
        #expect(try change(device) { _ = try device.updateConfig(DeviceConfig.Overrides()) } == .none)
    }

    @Test func whatAUserSetOrAnAppStoredIsDurable() throws {
        let device = try makeClarityDevice()
        #expect(try change(device) { _ = try device.storeSet(suite: nil, key: "k", value: .int(1)) } == .durable)
        #expect(try change(device) { _ = try device.apply(.lock) } == .durable)
        #expect(try change(device) { _ = try device.advance(seconds: 1) } == .durable)
        var raceDetector = DeviceConfig.Overrides()
        raceDetector.raceDetector = true
        #expect(try change(device) { _ = try device.updateConfig(raceDetector) } == .durable)
        #expect(try change(device) { _ = try device.perform(intent: "logMood", arguments: JSONArguments(["mood": 3])) } == .durable)
    }

    /// Asking the ShieldConfiguration extension for a shield runs it and reads the App Group:
    /// the trace moves, but nothing a user set changes.
    @Test func whatOnlyAProcessesLifeShowsIsVolatile() throws {
        let device = try makeClarityDevice()
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 600)
        let before = device.mark
        let asked = try device.shieldConfig(app: instagram)
        #expect(asked.title == "Text someone instead")
        #expect(device.changes(since: before) == .volatile)
        #expect(Effect.extensionLaunch(baselineBytes: 0).isDurable == false)
        #expect(Effect.storeRead(suite: "s", key: "k", bytes: 1).isDurable == false)
        let lost = LostUpdate(suite: "s", key: "k", readSeq: 1, otherActor: "outside", otherWriteSeq: 2, writeSeq: 3)
        #expect(Effect.race(lost).isDurable == false, "a finding about a write, which is durable itself")
        #expect(Effect.app(event: "xpAwarded", fields: [:]).isDurable)
        #expect(Effect.notification(title: "t", body: "b").isDurable)
    }
}
