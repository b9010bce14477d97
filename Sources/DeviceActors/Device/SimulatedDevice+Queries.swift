import ExtensionSandbox
import Foundation
@_spi(Host) import SimulatediOS

/// What a device shows: the read-only methods (`store.get`, `shields.get`, `device.state`, …).
extension SimulatedDevice {
    public var now: (t: Double, time: String) {
        (world.clock.now.seconds, calendar.isoString(world.clock.now))
    }

    public func storeGet(suite: String?, key: String) throws(DeviceError) -> StoredValue? {
        let container = platform.appGroups
        let suite = suite ?? app.appGroup
        return try run { await container.dump(suite: suite)[key] }
    }

    public func storeDump(suite: String?) throws(DeviceError) -> [String: StoredValue] {
        let container = platform.appGroups
        let suite = suite ?? app.appGroup
        return try run { await container.dump(suite: suite) }
    }

    public func shields() throws(DeviceError) -> ShieldsReport {
        let agent = platform.managedSettings
        let (app, names) = (platform.appName, appNames)
        return try run {
            let effective = await agent.effective()
            var report = ShieldsReport(
                effective: .init(applications: effective.applications, categories: effective.categories),
                stores: await agent.stores(of: app))
            if names.count > 1 {
                var apps: [String: [String: ShieldSettings]] = [:]
                for name in names { apps[name] = await agent.stores(of: name) }
                report.apps = apps
            }
            return report
        }
    }

    /// The device's `FamilyActivityPicker`: the opaque tokens a user's pick of these apps,
    /// categories and websites makes, for a test to build the values it expects an app to store.
    public var familyActivityPicker: FamilyActivityPicker { platform.familyActivityPicker }

    /// `shield.config`: asks the ShieldConfiguration extension now (traced like any callback).
    public func shieldConfig(app bundle: String) throws(DeviceError) -> ShieldConfigReport {
        let springBoard = springBoard
        let shown = try run { await springBoard.shieldConfiguration(for: bundle) }
        var report = ShieldConfigReport(
            app: bundle, shielded: shown != nil, title: shown?.configuration.title,
            subtitle: shown?.configuration.subtitle, primaryButtonLabel: shown?.configuration.primaryButtonLabel,
            secondaryButtonLabel: shown?.configuration.secondaryButtonLabel, source: shown?.source)
        report.appearance = shown?.configuration.appearance
        return report
    }

    public func notifications(since t: Double?) throws(DeviceError) -> [DeliveredNotification] {
        let agent = platform.notifications
        return try run { await agent.list(since: t) }
    }

    /// Each installed app's three extensions, in install order; each names its app when several
    /// are installed.
    public func sandboxes() -> [SandboxReport] {
        apps.flatMap { installed in
            let app = apps.count > 1 ? installed.name : nil
            return [
                report(installed.monitor, of: app), report(installed.shieldConfiguration, of: app),
                report(installed.shieldAction, of: app),
            ]
        }
    }

    private func report<E>(_ sandbox: Sandbox<E>, of app: String?) -> SandboxReport {
        SandboxReport(
            extension: sandbox.name, state: sandbox.state, budgetBytes: sandbox.budgetBytes,
            usedBytes: sandbox.usedBytes, peakBytes: sandbox.peakBytes, launches: sandbox.launches,
            jetsams: sandbox.jetsams, app: app)
    }

    public func activities() throws(DeviceError) -> [ActivityReport] {
        let agent = platform.deviceActivity
        let (calendar, app) = (calendar, platform.appName)
        return try run {
            await agent.currentActivities(of: app).values.sorted { $0.name < $1.name }.map { activity in
                ActivityReport(
                    name: activity.name, schedule: activity.schedule, events: activity.events,
                    phase: activity.phase.rawValue, intervalStart: activity.interval.map { calendar.isoString($0.start) },
                    intervalEnd: activity.interval.map { calendar.isoString($0.end) },
                    progress: activity.progress.mapValues { Double($0) / 1000 })
            }
        }
    }

    /// Trace entries after sequence `since` (all when nil) of the `kinds` selected (all when
    /// nil: a kind, or with a trailing `.` the kinds under it, `monitor.`), then the oldest
    /// `limit` of them, or the newest `last`; in trace order.
    public func traceEntries(since: Int?, limit: Int?, last: Int? = nil, kinds: [String]? = nil) -> [TracedEffect] {
        var entries = trace.recorder.entries(after: since ?? 0)[...]
        if let kinds {
            entries = entries.filter { entry in
                let kind = entry.payload.kind
                return kinds.contains { $0 == kind || ($0.hasSuffix(".") && kind.hasPrefix($0)) }
            }[...]
        }
        if let limit { entries = entries.prefix(limit) }
        if let last { entries = entries.suffix(last) }
        return entries.map { TracedEffect(entry: $0, calendar: calendar) }
    }

    /// `device.state`. The app's state is read as an observer, outside any process: its App Group
    /// reads are neither traced nor seen by the race detector, so looking changes nothing.
    public func state() throws(DeviceError) -> DeviceStateReport {
        try run { [self] in try await stateInWorld() }
    }

    /// `device.state`, built inside the world (by ``state()``, and by a scenario's conditions
    /// from a world task).
    func stateInWorld() async throws -> DeviceStateReport {
        let effective = await platform.managedSettings.effective()
        let (t, time) = now
        var installed: [InstalledAppReport]?
        if apps.count > 1 {
            installed = []
            for app in apps {
                installed?.append(
                    InstalledAppReport(
                        name: app.name, bundleIdentifier: app.bundleIdentifier, appGroup: app.app.appGroup,
                        state: try await app.app.state()))
            }
        }
        var report = DeviceStateReport(
            device: name, app: appName, t: t, time: time, locked: await springBoard.locked,
            foregroundApp: await springBoard.foregroundApp, shieldShown: await springBoard.shieldShown,
            wifi: await platform.system.ssid, call: await springBoard.call, contacts: await platform.system.contacts,
            focusMode: await platform.system.focusModeOn, notifications: await platform.notifications.authorization,
            online: await platform.network.online, platform: platform.devicePlatform,
            shields: .init(applications: effective.applications, categories: effective.categories),
            usageToday: await platform.deviceActivity.usageToday(),
            usageTodayByCategory: await platform.deviceActivity.usageTodayByCategory(), sandboxes: sandboxes(),
            appState: try await app.state())
        report.apps = installed
        return report
    }

    /// The app's part of `device.state` (`app`), read as ``state()`` reads it.
    func appState() throws(DeviceError) -> any Encodable & Sendable {
        let app = app
        return try run { try await app.state() }
    }

    public var summary: DeviceSummary {
        var summary = DeviceSummary(
            name: name, app: appName, platform: config.platform, clock: clockMode.rawValue, seed: seed, timezone: calendar.timeZoneName,
            start: DeviceCalendar.isoString(calendar.start), t: now.t, time: now.time)
        if apps.count > 1 { summary.apps = appNames }
        return summary
    }
}
