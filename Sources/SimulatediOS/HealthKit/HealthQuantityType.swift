/// The HealthKit quantities the simulated platform records (`HKQuantityTypeIdentifier`), by the
/// names the protocol's `health.sample` uses (docs/protocol.md, "Event types").
public enum HealthQuantityType: String, Sendable, Codable, NamedChoice, Comparable {
    /// `.stepCount`, in steps.
    case steps
    /// `.activeEnergyBurned`, in kilocalories.
    case activeEnergy
    /// `.appleExerciseTime`, in minutes.
    case exerciseMinutes

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Whether the user lets the app read HealthKit (device config `healthAuthorization`,
/// docs/platform.md, "HealthKit"). Apple hides a read denial: denied or never answered, queries
/// succeed with no data.
public enum HealthAuthorization: String, Sendable, Codable, NamedChoice {
    case granted
    case denied
    case notDetermined
}

/// What a HealthKit query throws when the device was told to fail it (`health.fail`): the seed's
/// `HealthServiceError.queryFailed` (seed 003, Story 1).
public struct HealthQueryFailed: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String { "HealthKit query failed (health.fail)" }
}
