import Foundation

/// One `Continue` as ShieldAction records it in the App Group's `bypasses` ledger: the HP it cost
/// and the cooldown it started (seed 004: "Deducts 10 HP from specific app -> Unblocks App ->
/// Sets Timer").
///
/// Why a ledger (docs/apps/scrollkitty.md, "Across processes"): the seed guards HP with a Swift
/// actor, but an actor lives in one process, and the main app (`selectApps`) and ShieldAction are
/// two. In this port every App Group key HP is derived from has one writer process: the main
/// app writes the selection and its allocation (`selectedApps`, `appHealthAllocation`,
/// `selection`), ShieldAction only this ledger. An app's HP is derived: its allocation less what
/// the current selection's bypasses cost; the seed's `appHealthData` shows it, written from the
/// sources by whoever changed them (``ScrollKittyProcess/publishHealth(_:)``). A
/// read-modify-write by one process can then never overwrite another's write; within
/// ShieldAction, bypasses are serialized (``ScrollKittyShieldAction``).
struct Bypass: Codable, Sendable, Equatable {
    /// The selection it belongs to (`selection`): a new `selectApps` leaves it behind.
    var selection: Int
    var tokenId: String
    /// HP it cost: `min(10, hp)` (0 in the `readModifyWrite` variant, which changes
    /// `appHealthData` itself).
    var lost: Int
    /// When, as virtual `t`.
    var at: Double
    /// The end of the app's cooldown as virtual `t` (`at` when the bypass killed the cat: no
    /// cooldown, the hard lock).
    var cooldownEndsAt: Double

    static func encode(_ ledger: [Bypass]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(ledger)) ?? Data()
    }

    static func decode(_ data: Data?) -> [Bypass] {
        data.flatMap { try? JSONDecoder().decode([Bypass].self, from: $0) } ?? []
    }
}
