import Foundation

/// `DateComponents` as the protocol carries them: any of `year`, `month`, `day`, `weekday`,
/// `hour`, `minute`, `second`.
public struct DateComponentsSpec: Sendable, Hashable, Codable {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    public var weekday: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?

    public init(
        year: Int? = nil, month: Int? = nil, day: Int? = nil, weekday: Int? = nil, hour: Int? = nil,
        minute: Int? = nil, second: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    var dateComponents: DateComponents {
        DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, weekday: weekday)
    }

    var isEmpty: Bool { [year, month, day, weekday, hour, minute, second].allSatisfy { $0 == nil } }

    /// The components read as a duration (a threshold or a warning time), in seconds.
    var durationSeconds: Int {
        (day ?? 0) * 86_400 + (hour ?? 0) * 3_600 + (minute ?? 0) * 60 + (second ?? 0)
    }
}

/// `DeviceActivitySchedule`.
public struct DeviceActivitySchedule: Sendable, Hashable, Codable {
    public var intervalStart: DateComponentsSpec
    public var intervalEnd: DateComponentsSpec
    public var repeats: Bool
    public var warningTime: DateComponentsSpec?

    public init(
        intervalStart: DateComponentsSpec, intervalEnd: DateComponentsSpec, repeats: Bool,
        warningTime: DateComponentsSpec? = nil
    ) {
        self.intervalStart = intervalStart
        self.intervalEnd = intervalEnd
        self.repeats = repeats
        self.warningTime = warningTime
    }
}

/// `DeviceActivityEvent`: usage of some apps and categories reaching a threshold.
public struct DeviceActivityEvent: Sendable, Hashable, Codable {
    public var applications: Set<String>
    public var categories: Set<String>
    public var threshold: DateComponentsSpec

    public init(applications: Set<String> = [], categories: Set<String> = [], threshold: DateComponentsSpec) {
        self.applications = applications
        self.categories = categories
        self.threshold = threshold
    }

    enum CodingKeys: String, CodingKey { case applications, categories, threshold }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        applications = try c.decodeIfPresent(Set<String>.self, forKey: .applications) ?? []
        categories = try c.decodeIfPresent(Set<String>.self, forKey: .categories) ?? []
        threshold = try c.decode(DateComponentsSpec.self, forKey: .threshold)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(applications.sorted(), forKey: .applications)
        try c.encode(categories.sorted(), forKey: .categories)
        try c.encode(threshold, forKey: .threshold)
    }
}

/// `DeviceActivityCenter.MonitoringError` (docs/platform.md).
public enum MonitoringError: String, Error, Sendable, Codable {
    /// More than 20 activities for the app and its extensions together.
    case excessiveActivities
    /// An interval shorter than 15 minutes.
    case intervalTooShort
    /// An interval longer than a week.
    case intervalTooLong
    /// Components that match no future date.
    case invalidDateComponents
    /// FamilyControls authorization is missing.
    case unauthorized

    public var message: String {
        switch self {
        case .excessiveActivities: "more than 20 activities would be monitored"
        case .intervalTooShort: "the schedule's interval is shorter than 15 minutes"
        case .intervalTooLong: "the schedule's interval is longer than a week"
        case .invalidDateComponents: "the schedule's date components match no future date"
        case .unauthorized: "FamilyControls authorization has not been granted"
        }
    }
}
