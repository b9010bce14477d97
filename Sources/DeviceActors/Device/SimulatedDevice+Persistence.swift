import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// A device's persistence: its data as a snapshot and back, and what a request changed (the
/// daemon journals a request that changed something durable before it answers).
extension SimulatedDevice {
    /// Rebuilds a device saved by ``snapshot()``, at the saved virtual time, with the trace it
    /// kept, its random generator and trace numbering going on where they stopped. No callback is replayed; the
    /// main app is launched again (it re-arms its timers), so what runs in memory only — an
    /// extension kept resident, the order of two timers due at the same instant — starts afresh.
    /// The system's own records come back as they were (WorkManager's works wait again for the
    /// network or their backoff); a work that was running is run again, once the app is launched.
    public convenience init(restoring snapshot: DeviceSnapshot, catalog: AppCatalog, servers: Servers? = nil) throws(DeviceError) {
        guard let start = DeviceCalendar.parseISO(snapshot.start) else {
            throw .invalidArgument(field: "start", reason: "not an ISO-8601 time")
        }
        guard let timeZone = TimeZone(identifier: snapshot.timezone) else {
            throw .invalidArgument(field: "timezone", reason: "unknown time zone")
        }
        try snapshot.check()
        let installed = try ([snapshot.app] + (snapshot.otherApps ?? []).map(\.name)).map { name throws(DeviceError) in
            try catalog.registration(named: name)
        }
        try self.init(
            DeviceDescription(
                name: snapshot.name, apps: .registered(installed), start: start, timeZone: timeZone,
                timeZoneName: snapshot.timezone, seed: snapshot.seed, clock: snapshot.clock, config: snapshot.config),
            options: DeviceRunOptions(launch: .skipped, traceSequence: snapshot.traceSequence ?? 0), servers: servers)
        if let state = snapshot.random { world.random = SeededRandom(seed: UInt64(bitPattern: state)) }
        trace.recorder.load(snapshot.trace?.map(\.entry) ?? [])
        do {
            try world.advance(to: VirtualInstant(milliseconds: snapshot.nowMilliseconds))
        } catch {
            throw .internalFailure("\(error)")
        }
        lastInputSequence = snapshot.lastInputSequence ?? trace.recorder.lastSequence
        let platform = platform
        let springBoard = springBoard
        let app = app
        try run {
            for (suite, values) in snapshot.suites {
                await platform.appGroups.restore(suite: suite, values: values)
            }
            await platform.appGroups.setUnlockedSinceBoot(snapshot.unlockedSinceBoot ?? true)
            await platform.system.restore(focusModeOn: snapshot.focusMode ?? false)
            await platform.managedSettings.restore(stores: snapshot.managedSettings, of: platform.appName)
            await platform.deviceActivity.restore(
                activities: snapshot.activities, of: platform.appName, usageByDay: snapshot.usageByDay,
                usageToday: snapshot.usageToday ?? [], queue: snapshot.monitorQueue ?? MonitorCallbackQueue())
            await platform.storeKit.restore(transactions: snapshot.storeTransactions ?? [])
            await platform.notifications.restore(authorization: snapshot.notificationAuthorization ?? .notDetermined)
            await platform.notifications.restore(delivered: snapshot.notifications ?? [])
            let pending = (snapshot.pendingNotifications ?? []).sorted { $0.request.identifier < $1.request.identifier }
            await platform.notifications.restore(pending: pending)
            for entry in pending { await platform.notificationCenter.arm(entry) }
            if let health = snapshot.health {
                func kinds(_ names: [String]) -> Set<HealthQuantityType> { Set(names.compactMap(HealthQuantityType.init(rawValue:))) }
                await platform.health.restore(
                    days: health.days.mapValues { totals in
                        Dictionary(uniqueKeysWithValues: totals.compactMap { name, sum in HealthQuantityType(rawValue: name).map { ($0, sum) } })
                    },
                    asked: health.asked, failuresPending: health.failuresPending,
                    backgroundDelivery: kinds(health.backgroundDelivery), undelivered: kinds(health.undelivered))
                if let due = health.relaunchDueMilliseconds {
                    await springBoard.armHealthRelaunch(at: VirtualInstant(milliseconds: due))
                }
            }
            await platform.network.restore(online: snapshot.online ?? true)
            await platform.work.restore(snapshot.works ?? [])
            await platform.shortcutsAgent.restore(snapshot.automations ?? [])
            if let data = snapshot.appData { try await app.restore(from: data) }
            for (installed, saved) in zip(self.apps.dropFirst(), snapshot.otherApps ?? []) {
                await platform.managedSettings.restore(stores: saved.managedSettings, of: installed.name)
                await platform.deviceActivity.restore(
                    activities: saved.activities, of: installed.name, usageByDay: snapshot.usageByDay,
                    usageToday: snapshot.usageToday ?? [], queue: saved.monitorQueue ?? MonitorCallbackQueue())
                if let data = saved.appData { try await installed.app.restore(from: data) }
            }
            await springBoard.restore(
                locked: snapshot.locked, foregroundApp: snapshot.foregroundApp, wifi: snapshot.wifi,
                contacts: snapshot.contacts, call: snapshot.call)
        }
        try startNetwork()
        platform.mainApp.restore(inMemory: snapshot.mainAppInMemory ?? true)
        for (installed, saved) in zip(apps.dropFirst(), snapshot.otherApps ?? []) {
            installed.platform.mainApp.restore(inMemory: saved.mainAppInMemory)
        }
        try launchApp()
        try run { await platform.work.startRestored() }
    }

    /// The device's data, for a snapshot file (the daemon's compaction of a long journal).
    public func snapshot() throws(DeviceError) -> DeviceSnapshot {
        let platform = platform
        let springBoard = springBoard
        let app = app
        let parts = try run {
            await platform.deviceActivity.accrueUsage()
            return (
                await platform.appGroups.suites, await platform.managedSettings.stores(of: platform.appName),
                await platform.deviceActivity.activities(of: platform.appName), await platform.deviceActivity.usageByDay,
                await springBoard.locked, await springBoard.foregroundApp, await platform.system.ssid,
                await platform.system.contacts, try await app.persistentData(), await platform.storeKit.transactions,
                await springBoard.call, await platform.deviceActivity.usageSpansToday,
                await platform.notifications.authorization, await self.healthSnapshot(), await platform.network.online,
                await platform.shortcutsAgent.automations.values.sorted { $0.trigger.rawValue < $1.trigger.rawValue },
                await platform.deviceActivity.queue(of: platform.appName).nonEmpty,
                await platform.appGroups.unlockedSinceBoot, await platform.system.focusModeOn
            )
        }
        let notifications = platform.notifications
        let (pending, delivered, works, otherApps) = try run { [apps] in
            let pending = await notifications.pending.values.sorted { $0.request.identifier < $1.request.identifier }
            let delivered = await notifications.list(since: nil)
            let works = await platform.work.pendingWorks
            var saved: [InstalledAppSnapshot] = []
            for installed in apps.dropFirst() {
                saved.append(
                    InstalledAppSnapshot(
                        name: installed.name, managedSettings: await platform.managedSettings.stores(of: installed.name),
                        activities: await platform.deviceActivity.activities(of: installed.name),
                        monitorQueue: await platform.deviceActivity.queue(of: installed.name).nonEmpty,
                        appData: try await installed.app.persistentData(), mainAppInMemory: installed.platform.mainApp.inMemory))
            }
            return (pending, delivered, works, saved)
        }
        return DeviceSnapshot(
            name: name, app: appName, start: DeviceCalendar.isoString(calendar.start),
            timezone: calendar.timeZoneName, seed: seed, random: Int64(bitPattern: world.random.state),
            traceSequence: trace.recorder.lastSequence, clock: clockMode, config: config,
            nowMilliseconds: world.clock.now.milliseconds, locked: parts.4, foregroundApp: parts.5, wifi: parts.6,
            contacts: parts.7, suites: parts.0, managedSettings: parts.1, activities: parts.2,
            focusMode: parts.18 ? true : nil, unlockedSinceBoot: parts.17 ? nil : false, monitorQueue: parts.16,
            usageByDay: parts.3, usageToday: parts.11,
            appData: parts.8, storeTransactions: parts.9, call: parts.10, notificationAuthorization: parts.12,
            mainAppInMemory: platform.mainApp.inMemory, health: parts.13, online: parts.14, automations: parts.15,
            trace: traceEntries(since: nil, limit: nil).map(SnapshotTraceEntry.init),
            pendingNotifications: pending.isEmpty ? nil : pending, works: works.isEmpty ? nil : works,
            otherApps: otherApps.isEmpty ? nil : otherApps, notifications: delivered.isEmpty ? nil : delivered,
            lastInputSequence: lastInputSequence)
    }

    /// The HealthKit store as the snapshot keeps it (inside the world).
    private func healthSnapshot() async -> HealthSnapshot {
        let health = platform.health
        return HealthSnapshot(
            days: await health.days.mapValues { totals in
                Dictionary(uniqueKeysWithValues: totals.map { ($0.key.rawValue, $0.value) })
            },
            asked: await health.asked, failuresPending: await health.failuresPending,
            backgroundDelivery: await health.backgroundDelivery.sorted().map(\.rawValue),
            undelivered: await health.undelivered.sorted().map(\.rawValue),
            relaunchDueMilliseconds: await springBoard.healthRelaunchDue?.milliseconds)
    }

    // MARK: - What changed

    /// Scheduler steps the device's world has run since it was made: what rebuilding it from
    /// its base (creation or snapshot) and its journal runs again, so the cost of a replay.
    public var stepsRun: Int { world.scheduler.steps }

    /// Where the device stands now: compare with a later mark to see what a request changed.
    public var mark: DeviceMark {
        DeviceMark(
            sequence: trace.recorder.lastSequence, milliseconds: world.clock.now.milliseconds,
            random: world.random.state, dataRevision: app.dataRevision.value, configRevision: configRevision)
    }

    /// What changed since `mark`: ``DeviceChange/durable`` when a durable effect was traced
    /// (``Effect/isDurable``), time moved, or the app's data or the config changed;
    /// ``DeviceChange/volatile`` when only volatile effects were traced or randomness drawn.
    public func changes(since mark: DeviceMark) -> DeviceChange {
        let now = self.mark
        guard now != mark else { return .none }
        if now.milliseconds != mark.milliseconds || now.dataRevision != mark.dataRevision
            || now.configRevision != mark.configRevision
            || trace.recorder.entries(after: mark.sequence).contains(where: \.payload.isDurable)
        {
            return .durable
        }
        return .volatile
    }
}

/// Where a device stands (``SimulatedDevice/mark``): its trace's last sequence number, its
/// virtual time, the state of its random generator and the revisions of its app data and config.
public struct DeviceMark: Sendable, Hashable {
    public let sequence: Int
    public let milliseconds: Int64
    public let random: UInt64
    public let dataRevision: Int
    public let configRevision: Int
}

/// What a request changed (``SimulatedDevice/changes(since:)``).
public enum DeviceChange: Sendable, Equatable {
    /// Nothing: the request only read.
    case none
    /// Only what a process's life shows (an extension launched, a value read): kept, but a
    /// power cut may lose the last of these without losing anything a user set.
    case volatile
    /// Something a user set, an app stored, or time: on disk before the reply.
    case durable
}

extension MonitorCallbackQueue {
    /// Self, or nil when empty: a snapshot leaves an empty queue out.
    fileprivate var nonEmpty: MonitorCallbackQueue? { isEmpty ? nil : self }
}
