import BuiltInApps
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
                DeviceDescription(
                    name: "brief", apps: .registered([.clarity]), start: Date(timeIntervalSince1970: 1_767_603_600),
                    timeZone: TimeZone(identifier: "UTC")!, seed: 0))
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
                DeviceDescription(
                    name: "brief", apps: .registered([.clarity]), start: Date(timeIntervalSince1970: 1_767_603_600),
                    timeZone: TimeZone(identifier: "UTC")!, seed: 0))
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

extension DeviceLifetimeTests {
    /// Every built-in app, on each platform it runs on: a device that lived a while (locked,
    /// unlocked, apps opened, the network lost and back, every intent asked, time passed, a value
    /// written) and was replaced by its restored twin, as a compaction does, is freed, and so is
    /// the twin. The daemon compacts each journal every few hundred lines: The Phone's Android
    /// client kept its world alive through the manifest receiver it declared, and a soak's memory
    /// grew by 13 MB a minute (issue 22).
    @Test(arguments: AppRegistration.builtIn.flatMap { app in app.platforms.sorted { $0.rawValue < $1.rawValue }.map { (app.name, $0) } })
    func aCompactedDeviceOfEveryAppIsFreed(_ name: String, _ platform: DevicePlatform) throws {
        let app = try #require(AppRegistration.builtIn.first { $0.name == name })
        let servers = Servers()
        weak var old: SimulatedDevice?
        weak var oldWorld: World?
        weak var restored: SimulatedDevice?
        do {
            var config = DeviceConfig()
            config.platform = platform
            let made = try SimulatedDevice(
                DeviceDescription(
                    name: "lived", apps: .registered([app]), start: Date(timeIntervalSince1970: 1_767_603_600),
                    timeZone: TimeZone(identifier: "UTC")!, seed: 7, config: config),
                servers: servers)
            for event: DeviceEvent in [
                .unlock, .appOpen(app: instagram), .networkOffline, .networkOnline, .appClose(app: instagram),
                .appOpen(app: "web:reddit.com"), .lock,
            ] {
                _ = try made.apply(event)
            }
            // Every intent, with no arguments, as a soak's users send them: some run, most are refused.
            let askEveryIntent = {
                for intent in app.description.intents { _ = try? made.perform(intent: intent.name, arguments: JSONArguments()) }
            }
            askEveryIntent()
            _ = try made.advance(seconds: 86_400)
            _ = try made.storeSet(suite: nil, key: "lived", value: .int(1))
            // Replaced in the middle of things: offline, unlocked, an app in front, a sync asked.
            for event: DeviceEvent in [.networkOffline, .unlock, .appOpen(app: instagram)] { _ = try made.apply(event) }
            askEveryIntent()
            _ = try made.advance(seconds: 30)
            let snapshot = try JSONDecoder().decode(DeviceSnapshot.self, from: JSONEncoder().encode(try made.snapshot()))
            let again = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog.builtIn, servers: servers)
            _ = try again.apply(.unlock)
            _ = try again.advance(seconds: 600)
            old = made
            oldWorld = made.world
            restored = again
        }
        #expect(old == nil, "\(name) on \(platform): the replaced device is kept alive")
        #expect(oldWorld == nil, "\(name) on \(platform): the replaced device's world is kept alive")
        #expect(restored == nil, "\(name) on \(platform): the restored device is kept alive")
    }
}
