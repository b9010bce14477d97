import Clarity
import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// A device let go of frees everything it made: its world and the world's scheduler too. The
/// scheduler held the reboot fault's closure, which held the scheduler (through `world.tasks`):
/// every device — each schedule of an exploration makes one — kept its scheduler, about 1.4 KB,
/// for the life of the process (found by the libFuzzer targets' leak check, issue 22).
@Suite struct DeviceLifetimeTests {
    @Test func aDeviceLetGoOfFreesItsWorldAndScheduler() throws {
        weak var device: SimulatedDevice?
        weak var world: World?
        weak var scheduler: ExtensionSandbox.Scheduler?
        do {
            let made = try SimulatedDevice(
                name: "brief", app: .clarity, start: Date(timeIntervalSince1970: 1_767_603_600), timeZone: TimeZone(identifier: "UTC")!,
                seed: 0, clock: .virtual, config: DeviceConfig())
            _ = try made.apply(.appOpen(app: instagram))
            _ = try made.advance(seconds: 600)
            device = made
            world = made.world
            scheduler = made.world.scheduler
        }
        #expect(device == nil)
        #expect(world == nil)
        #expect(scheduler == nil, "the scheduler is not kept alive by a closure it holds")
    }
}

extension DeviceLifetimeTests {
    /// A journal's compaction replaces a device by one restored from its snapshot: the old one
    /// must go, and the restored one too once let go of.
    @Test func aDeviceRestoredFromItsSnapshotAndTheOneItReplacedAreBothFreed() throws {
        weak var old: SimulatedDevice?
        weak var restored: SimulatedDevice?
        weak var restoredScheduler: ExtensionSandbox.Scheduler?
        do {
            let made = try SimulatedDevice(
                name: "brief", app: .clarity, start: Date(timeIntervalSince1970: 1_767_603_600), timeZone: TimeZone(identifier: "UTC")!,
                seed: 0, clock: .virtual, config: DeviceConfig())
            _ = try made.apply(.appOpen(app: instagram))
            _ = try made.advance(seconds: 600)
            let snapshot = try JSONDecoder().decode(DeviceSnapshot.self, from: JSONEncoder().encode(try made.snapshot()))
            let again = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.clarity]))
            _ = try again.advance(seconds: 60)
            old = made
            restored = again
            restoredScheduler = again.world.scheduler
        }
        #expect(old == nil)
        #expect(restored == nil)
        #expect(restoredScheduler == nil)
    }
}
