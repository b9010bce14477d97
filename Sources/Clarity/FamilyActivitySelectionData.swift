import Foundation
import SimulatediOS

/// The Codable wrapper seed 000 stores under `shieldedAppsSelection` (task 2d note:
/// "FamilyActivitySelectionData is a Codable wrapper for FamilyActivitySelection tokens"):
/// application and category tokens, JSON-encoded as `Data` in the App Group.
struct FamilyActivitySelectionData: Codable, Sendable, Hashable {
    var applicationTokens: [String]
    var categoryTokens: [String]

    /// The JSON, encoded once per process for the same selection of up to 64 tokens: every
    /// schedule of an exploration stores the scenario's selection again, and `JSONEncoder` was
    /// 1.9 % of it. A larger selection (a user's thousand apps) is encoded each time, not kept.
    var encoded: Data {
        guard applicationTokens.count + categoryTokens.count <= 64 else { return Data(Self.encode(self)) }
        return Data(Self.encodings.value(for: self, compute: Self.encode))
    }

    private static func encode(_ selection: FamilyActivitySelectionData) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return [UInt8]((try? encoder.encode(selection)) ?? Data())
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
    /// Selections already encoded, as bytes (for the reason above).
    private static let encodings = SharedMemo<FamilyActivitySelectionData, [UInt8]>(capacity: 256)
}
