import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// What one installed app's built-in invariants see of a device with several apps: the app's
/// own name, its shield stores, and the trace without what the other apps' processes did. (The
/// App Group is read by suite, and each app's suite is its own.) Judged over the whole device,
/// one app's rule that only its selected apps are shielded held another app's stores against the
/// first one's selection, and a scenario of the two failed as soon as the other shielded anything
/// (issue 38).
/// On a device with one app the device itself is the context.
struct AppInvariantContext: InvariantContext {
    let device: SimulatedDevice
    let appName: String

    var calendar: DeviceCalendar { device.calendar }
    var catalog: CategoryCatalog { device.catalog }
    var traceSoFar: ArraySlice<TraceEntry<Effect>> { ownEntries(device.traceSoFar) }

    func storeValue(suite: String, key: String) throws(DeviceError) -> StoredValue? {
        try device.storeValue(suite: suite, key: key)
    }

    func shieldStores() throws(DeviceError) -> [String: ShieldSettings] {
        let report = try device.shields()
        return report.apps?[appName] ?? report.stores
    }

    /// Why the app breaks `check`'s rule, shown the new entries that are its own.
    func violation(of check: inout any InvariantCheck, newEntries: ArraySlice<TraceEntry<Effect>>) throws(DeviceError)
        -> String?
    {
        try check.violation(in: self, newEntries: ownEntries(newEntries))
    }

    /// `entries` without those of another installed app's processes (`other.app`,
    /// `other.monitor` …): the system's, the outside world's and this app's stay.
    func ownEntries(_ entries: ArraySlice<TraceEntry<Effect>>) -> ArraySlice<TraceEntry<Effect>> {
        let others = Set(device.appNames).subtracting([appName])
        return ArraySlice(entries.filter { entry in
            guard let dot = entry.actor.firstIndex(of: ".") else { return true }
            return !others.contains(String(entry.actor[..<dot]))
        })
    }
}
