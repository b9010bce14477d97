import DeviceActors
import DeviceTesting
import Testing
import ThePhoneBackend

/// What the backend a test device talks to holds, read as the `backend.*` methods would (this
/// file alone imports the backend's module: its `WeeklyScore`, `LeaderboardEntry` share names
/// with the app's).
struct BackendLook {
    let host: ServerHost

    init(_ device: TestDevice) throws {
        host = try #require(device.device.connection?.servers.first)
    }

    func read<T>(_ body: (PhoneBackend) throws -> T) rethrows -> T {
        try host.read(PhoneBackend.self, body)!
    }

    /// `backend.events`: `(eventType, timestamp ms)` by timestamp.
    func events(of user: String) throws -> [(type: String, timestamp: Int64)] {
        try read { try $0.events(of: user).map { ($0.eventType.rawValue, $0.timestamp) } }
    }

    /// `backend.scores`: `(weekStart, totalPoints, streakCount, longestStreak)`.
    func scores(of user: String) throws -> [Score] {
        try read {
            try $0.weeklyScores(of: user).map {
                Score(weekStart: $0.weekStart, totalPoints: $0.totalPoints, streakCount: $0.streakCount, longestStreak: $0.longestStreak)
            }
        }
    }

    func trackingStatus(of user: String) -> String? {
        read { $0.user(named: user)?.trackingStatus.rawValue }
    }

    func user(of device: String) -> String? {
        read { $0.user(signedInOn: device)?.username }
    }

    func platform(of user: String) -> String? {
        read { $0.user(named: user)?.platform }
    }

    func temptationsEnabled(of user: String) throws -> Bool? {
        try read { try $0.temptationSettings(of: user)?.enabled }
    }

    func memberCount(of group: String) -> Int? {
        read { $0.group(id: group)?.members.count }
    }

    /// The backend's clock, ms since 1970.
    var now: Int64 { read { $0.clock } }

    struct Score: Equatable, CustomStringConvertible {
        let weekStart: String
        let totalPoints: Double
        let streakCount: Int
        let longestStreak: Int

        var description: String { "\(weekStart): \(totalPoints) (\(streakCount), \(longestStreak) s)" }
    }
}
