import Foundation
import SimulatediOS

/// The Codable wrapper seed 000 stores under `shieldedAppsSelection` (task 2d note:
/// "FamilyActivitySelectionData is a Codable wrapper for FamilyActivitySelection tokens"):
/// application and category tokens, JSON-encoded as `Data` in the App Group.
struct FamilyActivitySelectionData: Codable, Sendable, Equatable {
    var applicationTokens: [String]
    var categoryTokens: [String]

    var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data()
    }

    static func decode(_ data: Data?) -> FamilyActivitySelectionData? {
        data.flatMap { data in
            decoded.value(for: [UInt8](data)) { try? JSONDecoder().decode(FamilyActivitySelectionData.self, from: Data($0)) }
        }
    }

    /// Selections already decoded: the shield flow and the invariants decode the same few bytes
    /// again and again. Keyed by a copy of the bytes, not the `Data`: `Data` keeps its storage's
    /// address with an enum tag in the pointer's spare bits, which LeakSanitizer does not read as
    /// a pointer, so every selection remembered here was reported as leaked (fuzz-snapshot).
    private static let decoded = SharedMemo<[UInt8], FamilyActivitySelectionData?>(capacity: 256)
}
