import Foundation

/// One app's share of the cat's health (seed 004, `AppHealthManager`), as JSON
/// `{tokenId: {"hp", "maxHP"}}`: the share stored under `appHealthAllocation` when the apps are
/// selected; the HP now, that less the bypasses' cost (``CatHealth``), under the seed's
/// `appHealthData`.
struct AppHealth: Codable, Sendable, Equatable {
    var hp: Int
    var maxHP: Int

    /// The 100 HP split across `count` apps in whole HP: `100 div n` each, the first `100 mod n`
    /// apps one more, so the total is exactly 100 (project choice: 3 → 34/33/33).
    static func split(count: Int) -> [AppHealth] {
        let share = ScrollKittyKeys.totalHP / max(count, 1)
        let remainder = ScrollKittyKeys.totalHP % max(count, 1)
        return (0..<count).map { index in
            let hp = share + (index < remainder ? 1 : 0)
            return AppHealth(hp: hp, maxHP: hp)
        }
    }

    static func encode(_ health: [String: AppHealth]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(health)) ?? Data()
    }

    static func decode(_ data: Data?) -> [String: AppHealth] {
        data.flatMap { try? JSONDecoder().decode([String: AppHealth].self, from: $0) } ?? [:]
    }
}
