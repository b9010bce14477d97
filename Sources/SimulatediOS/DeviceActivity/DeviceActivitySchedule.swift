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

    /// Foundation's `DateComponents`, as iOS code builds them (`DateComponents(hour: 21)`): its
    /// year, month, day, weekday, hour, minute and second. What DeviceActivity does not read on
    /// iOS either (a calendar, a zone: the device's are used; nanoseconds, weeks of the year, the
    /// era) is left out.
    public init(_ components: DateComponents) {
        self.init(
            year: components.year, month: components.month, day: components.day, weekday: components.weekday,
            hour: components.hour, minute: components.minute, second: components.second)
    }

    @_spi(Host) public var dateComponents: DateComponents {
        DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, weekday: weekday)
    }

    @_spi(Host) public var isEmpty: Bool { [year, month, day, weekday, hour, minute, second].allSatisfy { $0 == nil } }

    /// The components read as a duration (a threshold or a warning time), in seconds, clamped
    /// to 0…one week whatever the components hold (decoding refuses more; app code may not).
    @_spi(Host) public var durationSeconds: Int {
        let seconds = Double(day ?? 0) * 86_400 + Double(hour ?? 0) * 3_600 + Double(minute ?? 0) * 60 + Double(second ?? 0)
        return Int(min(max(seconds, 0), Self.longestDuration))
    }

    /// The longest threshold or warning time: a week, the longest interval Apple allows.
    @_spi(Host) public static let longestDuration = 7.0 * 86_400

    /// What the components are read as, and so which values they may hold.
    @_spi(Host) public enum Use {
        /// A point in a schedule's calendar: year 1–9999, month 1–12, day 1–31, weekday 1–7,
        /// hour 0–23, minute and second 0–59.
        case calendar
        /// An amount of time (a threshold, a warning time): day, hour, minute, second, each ≥ 0,
        /// together at most a week.
        case duration
    }

    /// Each component with its name and its range as a calendar field.
    private var fields: [(name: String, value: Int?, range: ClosedRange<Int>)] {
        [
            ("year", year, 1...9999), ("month", month, 1...12), ("day", day, 1...31), ("weekday", weekday, 1...7),
            ("hour", hour, 0...23), ("minute", minute, 0...59), ("second", second, 0...59),
        ]
    }

    /// Why these components cannot serve as `use`, with the component at fault; nil when they can.
    @_spi(Host) public func problem(as use: Use) -> (component: String?, reason: String)? {
        switch use {
        case .calendar:
            for field in fields {
                if let value = field.value, !field.range.contains(value) {
                    return (field.name, "\(value) is out of range (\(field.range.lowerBound) to \(field.range.upperBound))")
                }
            }
        case .duration:
            for field in fields where field.value != nil && ["year", "month", "weekday"].contains(field.name) {
                return (field.name, "a duration takes day, hour, minute and second")
            }
            for field in fields {
                if let value = field.value, value < 0 { return (field.name, "must not be negative") }
            }
            let seconds = Double(day ?? 0) * 86_400 + Double(hour ?? 0) * 3_600 + Double(minute ?? 0) * 60 + Double(second ?? 0)
            if seconds > Self.longestDuration { return (nil, "at most a week (604800 seconds)") }
        }
        return nil
    }
}

extension KeyedDecodingContainer {
    /// Decodes components that must serve as `use`, refusing out-of-range values by their path
    /// (`schedule.intervalStart.hour`).
    @_spi(Host) public func decodeComponents(_ key: Key, as use: DateComponentsSpec.Use) throws -> DateComponentsSpec {
        let components = try decode(DateComponentsSpec.self, forKey: key)
        try components.check(as: use, at: codingPath + [key])
        return components
    }

    @_spi(Host) public func decodeComponentsIfPresent(_ key: Key, as use: DateComponentsSpec.Use) throws -> DateComponentsSpec? {
        guard let components = try decodeIfPresent(DateComponentsSpec.self, forKey: key) else { return nil }
        try components.check(as: use, at: codingPath + [key])
        return components
    }
}

extension DateComponentsSpec {
    fileprivate func check(as use: Use, at path: [any CodingKey]) throws {
        guard let (component, reason) = problem(as: use) else { return }
        let fullPath = component.map { path + [ComponentKey(stringValue: $0)] } ?? path
        throw DecodingError.dataCorrupted(.init(codingPath: fullPath, debugDescription: reason))
    }

    private struct ComponentKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// `DeviceActivitySchedule`. Decoding refuses components out of their ranges
/// (``DateComponentsSpec/Use``).
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

    /// iOS's initializer, with Foundation's `DateComponents` (``DateComponentsSpec/init(_:)``).
    public init(intervalStart: DateComponents, intervalEnd: DateComponents, repeats: Bool, warningTime: DateComponents? = nil) {
        self.init(
            intervalStart: DateComponentsSpec(intervalStart), intervalEnd: DateComponentsSpec(intervalEnd), repeats: repeats,
            warningTime: warningTime.map(DateComponentsSpec.init))
    }

    private enum CodingKeys: String, CodingKey { case intervalStart, intervalEnd, repeats, warningTime }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        intervalStart = try c.decodeComponents(.intervalStart, as: .calendar)
        intervalEnd = try c.decodeComponents(.intervalEnd, as: .calendar)
        repeats = try c.decode(Bool.self, forKey: .repeats)
        warningTime = try c.decodeComponentsIfPresent(.warningTime, as: .duration)
    }
}

/// `DeviceActivityEvent`: usage of some apps, categories and websites reaching a threshold.
public struct DeviceActivityEvent: Sendable, Hashable, Codable {
    public var applications: Set<String>
    public var categories: Set<String>
    /// Websites by domain, as ``WebDomain/normalized(_:)`` keeps them (`REDDIT.com` is
    /// `reddit.com`): time with one open in Safari (`web.open`) counts.
    public var webDomains: Set<String>
    public var threshold: DateComponentsSpec

    public init(
        applications: Set<String> = [], categories: Set<String> = [], webDomains: Set<String> = [], threshold: DateComponentsSpec
    ) {
        self.applications = applications
        self.categories = categories
        self.webDomains = Set(webDomains.map(WebDomain.canonical))
        self.threshold = threshold
    }

    /// `DeviceActivityEvent(applications:categories:webDomains:threshold:)` with the tokens the
    /// user picked.
    public init(
        applications: Set<ApplicationToken>, categories: Set<ActivityCategoryToken> = [], webDomains: Set<WebDomainToken> = [],
        threshold: DateComponentsSpec
    ) {
        self.init(
            applications: Set(applications.map(\.bundleIdentifier)), categories: Set(categories.map(\.category)),
            webDomains: Set(webDomains.map(\.domain)), threshold: threshold)
    }

    /// iOS's initializer with the tokens the user picked and a `DateComponents` threshold.
    public init(
        applications: Set<ApplicationToken> = [], categories: Set<ActivityCategoryToken> = [], webDomains: Set<WebDomainToken> = [],
        threshold: DateComponents
    ) {
        self.init(applications: applications, categories: categories, webDomains: webDomains, threshold: DateComponentsSpec(threshold))
    }

    /// Whether time in the frontmost `name` (an app in `category`, or a website) counts.
    func counts(_ name: String, category: String?) -> Bool {
        if let domain = WebDomain.domain(ofForegroundName: name) { return webDomains.contains(domain) }
        return applications.contains(name) || category.map(categories.contains) == true
    }

    @_spi(Host) public enum CodingKeys: String, CodingKey { case applications, categories, webDomains, threshold }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        applications = try c.decodeIfPresent(Set<String>.self, forKey: .applications) ?? []
        categories = try c.decodeIfPresent(Set<String>.self, forKey: .categories) ?? []
        webDomains = Set((try c.decodeIfPresent([String].self, forKey: .webDomains) ?? []).map(WebDomain.canonical))
        threshold = try c.decodeComponents(.threshold, as: .duration)
    }

    /// Web domains only when there are any: an event without them encodes as before.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(applications.sorted(), forKey: .applications)
        try c.encode(categories.sorted(), forKey: .categories)
        if !webDomains.isEmpty { try c.encode(webDomains.sorted(), forKey: .webDomains) }
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
