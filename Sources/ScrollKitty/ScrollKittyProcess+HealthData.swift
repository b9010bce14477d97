import SimulatediOS

/// The seed's `appHealthData`, kept true for whoever reads it (a widget, another version of the
/// app): each app's HP now, as `{tokenId: {"hp", "maxHP"}}` (docs/apps/scrollkitty.md,
/// "`appHealthData`").
///
/// In the correct port HP is derived from two sources with one writer each — the main app's
/// allocation and selection, ShieldAction's ledger — so that no read-modify-write by one process
/// can lose another's update. `appHealthData` is a view of them, written by each process that
/// changes what it derives from: the main app after `selectApps`, ShieldAction after a bypass,
/// the monitor at the midnight of `hpDailyReset`. No writer reads the view, so none can write
/// back a value another process replaced (the race detector has nothing to report); but one
/// may derive it from sources another process changes before its write lands. Each writer
/// therefore reads the sources again after writing and, if they moved, derives and writes again:
/// the last write to land was then derived after the last change of a source, so once the
/// processes are done the view is the sources' (a write derived from older sources always lands
/// before that check, which sees the change and writes again).
extension ScrollKittyProcess {
    /// Writes `appHealthData` from `cat` (the App Group as the caller last read or wrote it),
    /// again until the sources read after the write are the ones it was derived from. Nothing
    /// when the key is not derived (the `readModifyWrite` variant, an App Group from before the
    /// allocation key).
    func publishHealth(_ cat: CatHealth) async throws {
        var cat = cat
        while cat.derivesHealthData {
            try await sharedDefaults.set(.data(AppHealth.encode(cat.health)), forKey: ScrollKittyKeys.appHealthData)
            let selection = try await selection()
            let ledger = try await ledger()
            guard selection != cat.selection || ledger != cat.ledger else { return }
            cat = try await self.cat()
        }
    }

    /// The `readModifyWrite` variant's daily reset (`hpDailyReset`): the seed keeps HP in
    /// `appHealthData` and changes it in place, so the new day's HP is written there, every app
    /// back to its share. Nothing when every app has its share already.
    func resetHealthInPlace() async throws {
        let (health, _) = try await allocation()
        guard health.values.contains(where: { $0.hp != $0.maxHP }) else { return }
        try await setAllocation(health.mapValues { AppHealth(hp: $0.maxHP, maxHP: $0.maxHP) })
    }
}
