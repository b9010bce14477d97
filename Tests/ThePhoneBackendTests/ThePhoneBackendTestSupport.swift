import Foundation
import ThePhoneBackend

/// Milliseconds in a second, a minute, an hour, a day.
let second: Int64 = 1000
let minute: Int64 = 60 * second
let hour: Int64 = 60 * minute
let day: Int64 = 24 * hour

/// Milliseconds since 1970 of an ISO 8601 instant such as `2026-11-23T00:00:00Z`.
func at(_ iso: String) -> Int64 {
    let formatter = ISO8601DateFormatter()
    guard let date = formatter.date(from: iso) else { fatalError("not ISO 8601: \(iso)") }
    return Int64((date.timeIntervalSince1970 * 1000).rounded())
}

/// Monday 2026-11-23 00:00 UTC.
let monday = at("2026-11-23T00:00:00Z")

/// A device's event with the client id `n` as a UUID.
func event(_ n: Int, _ type: PhoneEvent.EventType, _ timestamp: Int64) -> SyncRequest.Event {
    SyncRequest.Event(id: clientId(n), eventType: type, timestamp: timestamp, source: "shortcut")
}

/// The UUID the tests give their `n`th event.
func clientId(_ n: Int) -> String {
    let digits = String(n)
    return "AAAAAAAA-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
}

extension PhoneBackend {
    /// A backend at `now` with one user per `(name, timezone)`, each on a device of its name.
    static func with(_ users: [(String, String)], now: Int64 = monday) throws -> PhoneBackend {
        var backend = PhoneBackend(now: now)
        for (name, timezone) in users {
            try backend.register(username: name, device: name, timezone: timezone, platform: "ios", now: now)
        }
        return backend
    }

    /// Syncs `events` for `username` at `now`, as a device that never synced.
    @discardableResult
    mutating func sync(_ username: String, _ events: [SyncRequest.Event], now: Int64, lastSync: Int64 = 0) throws -> SyncResponse {
        try syncEvents(username: username, request: SyncRequest(events: events, lastSync: lastSync, clientTime: now), now: now)
    }

    /// The stored score of `username` for the week starting on `weekStart` (`YYYY-MM-DD`).
    func score(_ username: String, _ weekStart: String) throws -> WeeklyScore? {
        try weeklyScores(of: username).first { $0.weekStart == weekStart }
    }
}
