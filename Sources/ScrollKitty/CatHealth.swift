/// The cat as the App Group says it is at one moment: the selection, its allocation and the
/// bypass ledger, read once (``ScrollKittyProcess/cat()``), with HP, cooldowns and death derived
/// from them (seed 004: "Global Cat Health = Sum of all app HPs"; "0 Global HP = Cat Dies").
struct CatHealth: Sendable {
    let selectedApps: [String]
    /// Each app's share when selected (`appHealthAllocation`; in the `readModifyWrite` variant
    /// `appHealthData`, less what the variant took from it in place).
    let allocation: [String: AppHealth]
    /// Whether `appHealthData` is derived from this cat (``ScrollKittyProcess/publishHealth(_:)``),
    /// rather than holding the allocation itself.
    let derivesHealthData: Bool
    let selection: Int
    let ledger: [Bypass]
    /// With `hpDailyReset`, the local midnight before which bypasses no longer cost HP; nil
    /// without it (HP persists across days).
    let countsFrom: Double?

    /// The current selection's bypasses, oldest first.
    var currentBypasses: [Bypass] { ledger.filter { $0.selection == selection } }

    /// What the ledger still needs at `now`: this selection's bypasses that cost HP today or whose
    /// cooldown has not ended (the rest can never count again).
    func ledgerKept(at now: Double) -> [Bypass] {
        currentBypasses.filter { bypass in countsFrom.map { bypass.at >= $0 } ?? true || bypass.cooldownEndsAt > now }
    }

    /// Each selected app's HP: its allocation less what its bypasses cost.
    var health: [String: AppHealth] {
        var health = allocation
        for bypass in currentBypasses where countsFrom.map({ bypass.at >= $0 }) ?? true {
            guard var app = health[bypass.tokenId] else { continue }
            app.hp = max(0, app.hp - bypass.lost)
            health[bypass.tokenId] = app
        }
        return health
    }

    var totalHP: Int { health.values.reduce(0) { $0 + $1.hp } }

    /// The same cat with `ledger` as its ledger (after ShieldAction wrote it).
    func with(ledger: [Bypass]) -> CatHealth {
        CatHealth(
            selectedApps: selectedApps, allocation: allocation, derivesHealthData: derivesHealthData, selection: selection,
            ledger: ledger, countsFrom: countsFrom)
    }

    /// With `hpDailyReset`: whether a bypass of this selection stopped costing HP at a midnight
    /// (`appHealthData` then has HP to give back).
    var hasBypassesOfEarlierDays: Bool {
        guard let countsFrom else { return false }
        return currentBypasses.contains { $0.lost > 0 && $0.at < countsFrom }
    }

    /// Total HP 0 with apps selected: the cat is dead and every selected app hard locked.
    var isDead: Bool { !selectedApps.isEmpty && totalHP == 0 }

    /// When the app's last cooldown ends (or ended), as virtual `t`; nil if it never had one in
    /// this selection.
    func cooldownEnd(of tokenId: String) -> Double? {
        currentBypasses.last { $0.tokenId == tokenId }?.cooldownEndsAt
    }

    /// Whether the app is in cooldown at `now` (unshielded after a bypass). Death ends every
    /// cooldown: the hard lock shields them all.
    func isCooling(_ tokenId: String, at now: Double) -> Bool {
        !isDead && (cooldownEnd(of: tokenId).map { $0 > now } ?? false)
    }
}
