/// A row of the seed's `temptation_settings` table ("Database Schema"): no row, never tempted
/// (the seed's `JOIN temptation_settings`).
public struct TemptationSettings: Codable, Sendable, Equatable {
    /// The seed's `intensity VARCHAR(10) … -- low, medium, high` with its `FREQUENCY_MAP`.
    public enum Intensity: String, Codable, Sendable, CaseIterable {
        case low
        case medium
        case high

        /// Temptations per hour during a streak (seed: `low: 0.5, medium: 1, high: 2`).
        public var frequency: Double {
            switch self {
            case .low: 0.5
            case .medium: 1
            case .high: 2
            }
        }
    }

    /// Seed: `enabled BOOLEAN NOT NULL DEFAULT TRUE`.
    public let enabled: Bool
    /// Seed: `DEFAULT 'medium'`.
    public let intensity: Intensity
    /// `HH:MM`, or nil (seed: `quiet_start TIME, -- e.g., 22:00`).
    public let quietStart: String?
    /// `HH:MM`, or nil (seed: `quiet_end TIME, -- e.g., 07:00`).
    public let quietEnd: String?
    public let updatedAt: Int64

    /// Minutes since midnight of an `HH:MM` (00:00 to 23:59), nil otherwise.
    static func minutes(_ time: String) -> Int? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }
}
