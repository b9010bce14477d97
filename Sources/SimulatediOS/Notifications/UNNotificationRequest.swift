import Foundation

/// `UNMutableNotificationContent`: what a notification says.
public struct UNNotificationContent: Sendable, Hashable, Codable {
    public var title: String
    public var body: String

    public init(title: String = "", body: String = "") {
        self.title = title
        self.body = body
    }
}

/// When a request is delivered: `UNTimeIntervalNotificationTrigger(timeInterval:repeats:)` or
/// `UNCalendarNotificationTrigger(dateMatching:repeats:)` (the device's calendar and zone).
public enum UNNotificationTrigger: Sendable, Hashable, Codable {
    /// After `seconds` (> 0; at least 60 when it repeats, as iOS requires).
    case timeInterval(TimeInterval, repeats: Bool)
    /// At the next time matching the components (every match when it repeats).
    case calendar(DateComponentsSpec, repeats: Bool)

    /// `UNCalendarNotificationTrigger(dateMatching:repeats:)` with Foundation's `DateComponents`.
    public static func calendar(dateMatching components: DateComponents, repeats: Bool) -> UNNotificationTrigger {
        .calendar(DateComponentsSpec(components), repeats: repeats)
    }

    var repeats: Bool {
        switch self {
        case .timeInterval(_, let repeats), .calendar(_, let repeats): repeats
        }
    }
}

/// `UNNotificationRequest(identifier:content:trigger:)`: a nil trigger delivers at once; adding
/// a request whose identifier is pending replaces it.
public struct UNNotificationRequest: Sendable, Hashable, Codable {
    public var identifier: String
    public var content: UNNotificationContent
    public var trigger: UNNotificationTrigger?

    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }
}

/// A request waiting for its trigger: what it is, who added it and when it is due.
public struct PendingNotification: Sendable, Hashable, Codable {
    public let request: UNNotificationRequest
    /// The process that added it: the notification's `source`.
    public let source: String
    public let dueMilliseconds: Int64
    /// Bumped by every add or re-arm of this identifier: a timer armed for an older one finds it
    /// gone and delivers nothing.
    public let generation: Int
}
