import SimulatediOS

/// DailyLimit's settings: a device's `config.app` when the app is registered with clarityd,
/// or given directly in a test.
public struct DailyLimitSettings: AppConfiguration, Equatable {
    /// Minutes of the limited apps a day before the shield (1–1440).
    public var dailyLimitMinutes: Int
    /// How many times a day "I need it" may be pressed before the shield offers only Close (0–10).
    public var maxRequests: Int
    /// On (the default), each day's requests have a key of their own that only the shield action
    /// writes; off, the first version: one counter that the monitor zeroes when the day ends,
    /// racing the shield action's read-modify-write (``DailyLimitKeys/requestsToday``).
    public var countRequestsPerDay: Bool

    public static let members = ["dailyLimitMinutes", "maxRequests", "countRequestsPerDay"]

    public init(dailyLimitMinutes: Int = 30, maxRequests: Int = 3, countRequestsPerDay: Bool = true) {
        self.dailyLimitMinutes = dailyLimitMinutes
        self.maxRequests = maxRequests
        self.countRequestsPerDay = countRequestsPerDay
    }

    private enum CodingKeys: String, CodingKey { case dailyLimitMinutes, maxRequests, countRequestsPerDay }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        dailyLimitMinutes = try container.decodeIfPresent(Int.self, forKey: .dailyLimitMinutes) ?? 30
        maxRequests = try container.decodeIfPresent(Int.self, forKey: .maxRequests) ?? 3
        countRequestsPerDay = try container.decodeIfPresent(Bool.self, forKey: .countRequestsPerDay) ?? true
    }

    public func validate() throws(DeviceError) {
        guard (1...1440).contains(dailyLimitMinutes) else {
            throw .invalidArgument(field: "dailyLimitMinutes", reason: "a whole number of minutes, 1 to 1440")
        }
        guard (0...10).contains(maxRequests) else {
            throw .invalidArgument(field: "maxRequests", reason: "a whole number, 0 to 10")
        }
    }
}
