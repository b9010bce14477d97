import SimulatediOS

/// Clarity's own settings (`config.app` of a Clarity device; docs/apps/clarity.md, "Settings"),
/// fixed when the device is created. The device config's top-level `frictionThresholdsMinutes`
/// and `verificationNamesChallenge`, older spellings of the same two, are still accepted:
/// `config.app` wins where both are given.
public struct ClarityConfig: AppConfiguration, Hashable {
    /// Minutes of the day's usage at which friction layers 1…5 are reached (project choice).
    public var frictionThresholdsMinutes: [Int]
    /// On, the verification event names its challenge and the main app accepts a verification
    /// only for the challenge it is waiting on (the fix of seed 000 task 2c's race); off, the
    /// monitor verifies whichever challenge is current, as the seed does.
    public var verificationNamesChallenge: Bool

    public static let defaultThresholdsMinutes = [5, 10, 15, 20, 25]
    public static let members = ["frictionThresholdsMinutes", "verificationNamesChallenge"]
    /// Both settings with their defaults, as the device config's top level also takes them.
    public static let topLevelDefaults: [String: StoredValue] = [
        "frictionThresholdsMinutes": .array(defaultThresholdsMinutes.map(StoredValue.int)),
        "verificationNamesChallenge": .bool(false),
    ]

    public init(frictionThresholdsMinutes: [Int] = defaultThresholdsMinutes, verificationNamesChallenge: Bool = false) {
        self.frictionThresholdsMinutes = frictionThresholdsMinutes
        self.verificationNamesChallenge = verificationNamesChallenge
    }

    private enum CodingKeys: String, CodingKey {
        case frictionThresholdsMinutes, verificationNamesChallenge
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        frictionThresholdsMinutes =
            try container.decodeIfPresent([Int].self, forKey: .frictionThresholdsMinutes) ?? Self.defaultThresholdsMinutes
        verificationNamesChallenge = try container.decodeIfPresent(Bool.self, forKey: .verificationNamesChallenge) ?? false
    }

    public func validate() throws(DeviceError) {
        try Self.check(thresholdsMinutes: frictionThresholdsMinutes)
    }

    /// Five increasing minute counts, each 1 to 1440.
    public static func check(thresholdsMinutes thresholds: [Int]) throws(DeviceError) {
        guard thresholds.count == 5, thresholds.allSatisfy({ (1...1440).contains($0) }), thresholds == thresholds.sorted(),
            Set(thresholds).count == 5
        else {
            throw .invalidArgument(field: "frictionThresholdsMinutes", reason: "five increasing minute counts, each 1 to 1440")
        }
    }
}
