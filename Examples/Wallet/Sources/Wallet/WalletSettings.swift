import SimulatediOS

/// Wallet's settings: a device's `config.app` when the app is registered with clarityd, or given
/// directly in a test.
public struct WalletSettings: AppConfiguration, Equatable {
    /// How the main app syncs minutes earned with the server.
    public enum Variant: String, Codable, Sendable, CaseIterable {
        /// The first version: reads the balance (`GET /balance`), adds what was earned and writes
        /// the total back (`PUT /balance`). A spend at the shield that lands between the two
        /// round trips is overwritten: minutes created from nothing. Each finished workout starts
        /// a sync task of its own (``WalletMainApp/finishWorkout(_:)``).
        case naive
        /// Sends only what was earned (`POST /earn`): the server adds it to whatever the
        /// balance is by then. One background sync at a time.
        case fixed
    }

    /// `fixed` unless given.
    public var variant: Variant
    /// Minutes the shield spends to unlock an app for the rest of the day (1–1440).
    public var unlockCost: Int

    public static let members = ["variant", "unlockCost"]

    public init(variant: Variant = .fixed, unlockCost: Int = 10) {
        self.variant = variant
        self.unlockCost = unlockCost
    }

    private enum CodingKeys: String, CodingKey { case variant, unlockCost }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decodeIfPresent(String.self, forKey: .variant) ?? Variant.fixed.rawValue
        guard let variant = Variant(rawValue: name) else {
            let valid = Variant.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(forKey: .variant, in: container, debugDescription: "one of \(valid)")
        }
        self.variant = variant
        unlockCost = try container.decodeIfPresent(Int.self, forKey: .unlockCost) ?? 10
    }

    public func validate() throws(DeviceError) {
        guard (1...1_440).contains(unlockCost) else {
            throw .invalidArgument(field: "unlockCost", reason: "a whole number of minutes, 1 to 1440")
        }
    }
}
