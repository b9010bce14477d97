import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// A snapshot file read back at a restart is checked as the protocol checked its values
/// (``DeviceSnapshot/check()``): a damaged one is refused naming the field, where restoring it
/// once trapped the daemon on the first usage it added (`usageByDay` near `Int64.max`, found by
/// fuzz-snapshot: docs/fuzzing.md).
@Suite struct SnapshotChecksTests {
    /// A Clarity device monitoring Instagram, used for five minutes today (before its first
    /// friction shield): activities with progress, today's usage and its spans.
    private func usedDevice() throws -> SimulatedDevice {
        let device = try makeClarityDevice()
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 300)
        return device
    }

    private func writtenSnapshot() throws -> DeviceSnapshot { try usedDevice().snapshot() }

    /// The usage since DeviceActivity last counted it (at its last event or deadline) is in the
    /// snapshot too: a restart once lost it, the restored device counting from the restart on.
    @Test func aSnapshotAsWrittenComesBackAndGoesOnCounting() throws {
        let device = try usedDevice()
        _ = try device.advance(seconds: 60)
        let snapshot = try device.snapshot()
        #expect(snapshot.activities.values.contains { !$0.progress.isEmpty }, "the base must have progress to damage")
        #expect(!(snapshot.usageToday ?? []).isEmpty)
        let restored = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.clarity]))
        for each in [device, restored] {
            _ = try each.advance(seconds: 60)
            _ = try each.apply(.appClose(app: instagram))
        }
        let usage = try restored.snapshot().usageByDay
        #expect(usage.values.first?[instagram] == 420_000, "six minutes before the restart and one after")
        #expect(usage == (try device.snapshot().usageByDay))
        #expect(try restored.snapshot().activities == device.snapshot().activities)
        #expect(try restored.snapshot().usageToday == device.snapshot().usageToday)
    }

    /// A snapshot counts usage at its own time, and that changes nothing the device does after:
    /// counting is additive, and the day's change is counted at midnight (a deadline while an
    /// app is in use) whether or not a snapshot came between.
    @Test func aSnapshotChangesNothingTheDeviceDoesAfter() throws {
        let devices = try [makeClarityDevice(), makeClarityDevice()]
        for device in devices {
            _ = try device.advance(seconds: 14 * 3_600)  // 23:00
            _ = try device.apply(.appOpen(app: instagram))
            _ = try device.advance(seconds: 5_400)  // 00:30, no deadline between
        }
        _ = try devices[0].snapshot()
        for device in devices {
            _ = try device.advance(seconds: 1_800)
            _ = try device.apply(.appClose(app: instagram))
        }
        let (snapshotted, not) = (try devices[0].snapshot(), try devices[1].snapshot())
        #expect(snapshotted.usageByDay == ["2026-01-06": [instagram: 3_600_000]], "00:00 to 01:00")
        #expect(not.usageByDay == snapshotted.usageByDay)
        #expect(not.usageToday == snapshotted.usageToday)
        #expect(snapshotted.usageToday?.map(\.start.milliseconds) == [15 * 3_600_000])
    }

    /// What an app may set is no damage: a notification due a million years on (past 2^53 ms) comes back
    /// (a snapshot refused is a compaction that fails, again and again).
    @Test func aNotificationDueAMillionYearsOnComesBack() throws {
        var snapshot = try writtenSnapshot()
        let request = UNNotificationRequest(identifier: "n", content: UNNotificationContent(title: "t", body: "b"), trigger: nil)
        let due = snapshot.nowMilliseconds + 1_000_000 * 365 * 86_400_000
        snapshot.pendingNotifications = [PendingNotification(request: request, source: "clarity.app", dueMilliseconds: due, generation: 1)]
        let restored = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.clarity]))
        #expect(try restored.snapshot().pendingNotifications?.map(\.dueMilliseconds) == [due])
    }

    /// Callbacks due while the phone is locked wait for it to be in use; a snapshot taken
    /// meanwhile keeps them, so the device rebuilt from it (a compaction, a restart) delivers
    /// them at the unlock as the device it was taken from does.
    @Test func callbacksWaitingForAnUnlockSurviveASnapshot() throws {
        let device = try makeClarityDevice()
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.advance(seconds: 14 * 3_600 + 1_800)  // 23:30
        _ = try device.apply(.lock)
        _ = try device.advance(seconds: 3_600)  // 00:30: the day's interval ended and the next began
        let restored = try SimulatedDevice(restoring: device.snapshot(), catalog: AppCatalog([.clarity]))
        func callbacks(_ outcome: DeviceOutcome) -> [String] {
            outcome.effects.compactMap {
                if case .extensionCallback(let name) = $0.entry.payload { return name }
                return nil
            }
        }
        let delivered = try callbacks(device.apply(.unlock))
        #expect(delivered == ["intervalDidEnd", "intervalDidStart"])
        #expect(try callbacks(restored.apply(.unlock)) == delivered)
    }

    /// Focus mode is the system's: a device snapshotted with it on comes back with it on, for
    /// an app that does not set it again at launch as Clarity does.
    @Test func focusModeSurvivesASnapshot() throws {
        let device = try makeClarityDevice()
        let system = device.platform.system
        try device.world.perform { await system.setFocusMode(true) }
        let restored = try SimulatedDevice(restoring: device.snapshot(), catalog: AppCatalog([.clarity]))
        let restoredSystem = restored.platform.system
        #expect(try restored.world.perform { await restoredSystem.focusModeOn })
        #expect(try restored.snapshot().focusMode == true)
        #expect(try makeClarityDevice().snapshot().focusMode == nil, "off is left out")
    }

    /// One damage to a written snapshot, and the field the restart names.
    struct Damage: Sendable, CustomTestStringConvertible {
        let field: String
        let apply: @Sendable (inout DeviceSnapshot) -> Void
        var testDescription: String { field }
    }

    static let damages: [Damage] = [
        Damage(field: "usageByDay.*.com.burbn.instagram") { snapshot in
            for day in snapshot.usageByDay.keys { snapshot.usageByDay[day]![instagram] = .max - 1 }
        },
        Damage(field: "usageByDay.*.com.burbn.instagram") { snapshot in
            for day in snapshot.usageByDay.keys { snapshot.usageByDay[day]![instagram] = -1 }
        },
        Damage(field: "activities.*.progress.*") { snapshot in
            for name in snapshot.activities.keys {
                for event in snapshot.activities[name]!.progress.keys { snapshot.activities[name]!.progress[event] = .max }
            }
        },
        Damage(field: "activities.*.interval.start") { snapshot in
            for name in snapshot.activities.keys { snapshot.activities[name]!.interval?.start = VirtualInstant(milliseconds: .min) }
        },
        Damage(field: "activities.*.interval") { snapshot in
            for name in snapshot.activities.keys {
                guard let end = snapshot.activities[name]!.interval?.end else { continue }
                snapshot.activities[name]!.interval?.start = VirtualInstant(milliseconds: end.milliseconds - 8 * 86_400_000)
            }
        },
        // An activity at the device's first day on a device 285 000 years on: DeviceActivity
        // walked every day between (fuzz-snapshot's timeout).
        Damage(field: "activities.*.interval") { snapshot in snapshot.nowMilliseconds = 1 << 53 },
        Damage(field: "monitorQueue.batchFlushAt") { snapshot in
            snapshot.monitorQueue = MonitorCallbackQueue(batchFlushAt: VirtualInstant(milliseconds: .max))
        },
        Damage(field: "usageToday[0]") { snapshot in
            snapshot.usageToday![0].end = VirtualInstant(milliseconds: snapshot.nowMilliseconds + 1)
        },
        Damage(field: "usageToday[1]") { snapshot in
            snapshot.usageToday!.append(snapshot.usageToday![0])
        },
        Damage(field: "traceSequence") { snapshot in snapshot.traceSequence = .max },
        Damage(field: "lastInputSequence") { snapshot in snapshot.lastInputSequence = snapshot.traceSequence! + 1 },
        Damage(field: "lastInputSequence") { snapshot in snapshot.lastInputSequence = -1 },
        Damage(field: "notifications[0].t") { snapshot in
            snapshot.notifications = [DeliveredNotification(t: -1, title: "t", body: "b", source: "clarity.monitor", silenced: false)]
        },
        Damage(field: "trace[1].seq") { snapshot in snapshot.trace = snapshot.trace!.reversed() },
        Damage(field: "trace[*].seq") { snapshot in
            let last = snapshot.trace!.last!
            let entry = TraceEntry(
                sequence: .max - 1, time: last.entry.time, actor: last.entry.actor, sandbox: nil, payload: last.entry.payload)
            snapshot.trace!.append(SnapshotTraceEntry(TracedEffect(entry: entry, calendar: last.calendar!)))
        },
        Damage(field: "trace[*].t") { snapshot in
            let last = snapshot.trace!.last!
            let entry = TraceEntry(
                sequence: last.entry.sequence + 1, time: VirtualInstant(milliseconds: snapshot.nowMilliseconds + 1),
                actor: last.entry.actor, sandbox: nil, payload: last.entry.payload)
            snapshot.trace!.append(SnapshotTraceEntry(TracedEffect(entry: entry, calendar: last.calendar!)))
        },
        Damage(field: "pendingNotifications[0].dueMilliseconds") { snapshot in
            let request = UNNotificationRequest(identifier: "n", content: UNNotificationContent(title: "t", body: "b"), trigger: nil)
            snapshot.pendingNotifications = [PendingNotification(request: request, source: "clarity.app", dueMilliseconds: .max, generation: 1)]
        },
        Damage(field: "storeTransactions[0].purchaseT") { snapshot in
            snapshot.storeTransactions = [StoreTransaction(id: 1, productID: "p", purchaseT: -1, revoked: false, expired: false)]
        },
        Damage(field: "call.since") { snapshot in
            snapshot.call = CallState(handle: "+1", isOutgoing: true, hasConnected: false, hasEnded: false, since: 1e300)
        },
        Damage(field: "health.failuresPending") { snapshot in
            snapshot.health = HealthSnapshot(
                days: [:], asked: true, failuresPending: .max, backgroundDelivery: [], undelivered: [], relaunchDueMilliseconds: nil)
        },
        Damage(field: "health.days.*.steps") { snapshot in
            snapshot.health = HealthSnapshot(
                days: ["2026-01-01": ["steps": -5]], asked: true, failuresPending: 0, backgroundDelivery: [], undelivered: [],
                relaunchDueMilliseconds: nil)
        },
    ]

    /// A WorkManager work as a snapshot file holds it, its backoff as written (unclamped).
    static func work(_ name: String = "sync", backoff: Double = 60, attempts: Int = 0, wait: PendingWork.Wait = .network) -> PendingWork {
        let request = try! JSONDecoder().decode(
            OneTimeWorkRequest.self, from: Data(#"{"workerClassName":"SyncWorker","requiresNetwork":true,"initialBackoffSeconds":\#(backoff)}"#.utf8))
        return PendingWork(name: name, request: request, attempts: attempts, wait: wait)
    }

    static let workDamages: [Damage] = [
        Damage(field: "works[1].name") { snapshot in snapshot.works = [work(), work(wait: .run)] },
        Damage(field: "works[0].request.initialBackoffSeconds") { snapshot in snapshot.works = [work(backoff: 0)] },
        Damage(field: "works[0].request.initialBackoffSeconds") { snapshot in snapshot.works = [work(backoff: 1e300)] },
        Damage(field: "works[0].attempts") { snapshot in snapshot.works = [work(attempts: -1)] },
        Damage(field: "works[0].wait.backoff") { snapshot in snapshot.works = [work(wait: .backoff(untilMilliseconds: .max))] },
    ]

    @Test(arguments: damages + workDamages)
    func aDamagedSnapshotIsRefusedNamingTheField(damage: Damage) throws {
        var snapshot = try writtenSnapshot()
        damage.apply(&snapshot)
        let error = #expect(throws: DeviceError.self) {
            try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.clarity]))
        }
        guard case .invalidArgument(let field, _) = error else {
            Issue.record("refused otherwise: \(String(describing: error))")
            return
        }
        // `*` stands for a day's key, an activity's or an event's name, an index.
        let pattern = "^" + NSRegularExpression.escapedPattern(for: damage.field).replacingOccurrences(of: "\\*", with: "[^.\\]]+") + "$"
        #expect(field.range(of: pattern, options: .regularExpression) != nil, "refused naming \(field)")
    }

    /// The app's own data is the app's to read: Clarity restored with an install time of
    /// `Int64.max` (a damaged file) computes a trial end no clock reaches, and its trial timer
    /// is one that never fires, instead of trapping the daemon (fuzz-snapshot).
    @Test func anInstallTimeAtTheEndOfTimeSetsATimerThatNeverFires() throws {
        var snapshot = try writtenSnapshot()
        let appData = try #require(snapshot.appData)
        var data = try #require(try JSONSerialization.jsonObject(with: appData) as? [String: Any])
        var store = try #require(data["store"] as? [String: Any])
        var profile = try #require(store["profile"] as? [String: Any])
        profile["installedAt"] = Int64.max
        store["profile"] = profile
        data["store"] = store
        snapshot.appData = try JSONSerialization.data(withJSONObject: data)
        let restored = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.clarity]))
        _ = try restored.advance(seconds: 86_400)
        #expect(try restored.state().time == "2026-01-06T09:05:00Z")
    }
}
