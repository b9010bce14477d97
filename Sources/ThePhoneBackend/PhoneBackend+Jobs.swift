/// The seed's scheduled jobs, run as the backend's clock passes their times (APPS.md §4.6).
extension PhoneBackend {
    /// Seed: `retentionDays = 90`.
    public static let retention: Int64 = 90 * day
    static let day: Int64 = 24 * 60 * 60 * 1000
    static let week: Int64 = 7 * day
    /// "Runs daily at 03:00 UTC".
    static let retentionHour: Int64 = 3 * 60 * 60 * 1000
    /// Monday 1970-01-05 00:00 UTC: weekly resets run at it plus whole weeks ("Runs Monday
    /// 00:00 UTC via cron").
    static let firstMonday: Int64 = 4 * day
    /// "Runs every 5 minutes to check who needs tempting".
    static let temptationPeriod: Int64 = 5 * 60 * 1000

    /// Moves the backend's clock to `now` if later (it never goes back) and runs each job whose
    /// time is in (old clock, `now`], each at its own time, in time order (at one instant:
    /// retention, weekly reset, temptations): retention daily at 03:00 UTC, the weekly reset
    /// Monday 00:00 UTC, temptations every 5 minutes at :00, :05, … Returns the jobs that ran,
    /// temptation runs only when they sent something.
    public mutating func advanceClock(to now: Int64) -> [BackendJob] {
        guard now > clock else { return [] }
        let due = [
            Self.times(after: clock, upTo: now, offset: Self.retentionHour, period: Self.day).map { ($0, Scheduled.retention) },
            Self.times(after: clock, upTo: now, offset: Self.firstMonday, period: Self.week).map { ($0, Scheduled.weeklyReset) },
            Self.times(after: clock, upTo: now, offset: 0, period: Self.temptationPeriod).map { ($0, Scheduled.temptations) },
        ].joined().sorted { ($0.0, $0.1.rawValue) < ($1.0, $1.1.rawValue) }
        clock = now
        return due.compactMap { time, job in
            switch job {
            case .retention:
                return .purgeOldEvents(at: time, purged: purgeOldEvents(now: time))
            case .weeklyReset:
                weeklyReset()
                return .weeklyReset(at: time)
            case .temptations:
                let sent = processTemptations(now: time)
                return sent.isEmpty ? nil : .processTemptations(at: time, sent: sent)
            }
        }
    }

    /// The seed's `purgeOldEvents`: deletes every event whose timestamp is more than 90 days
    /// before `now` (`timestamp < NOW() - INTERVAL '90 days'`); returns how many. Scores stay.
    @discardableResult
    public mutating func purgeOldEvents(now: Int64) -> Int {
        var purged = 0
        for id in events.keys {
            let before = events[id]?.count ?? 0
            events[id]?.removeAll { $0.timestamp < now - Self.retention }
            purged += before - (events[id]?.count ?? 0)
        }
        return purged
    }

    /// The seed's `weeklyReset`: drops every cached leaderboard (`redis.keys('leaderboard:*')`).
    public mutating func weeklyReset() {
        leaderboardCache = [:]
    }

    /// The scheduled jobs, in the order they run at one instant.
    private enum Scheduled: Int {
        case retention, weeklyReset, temptations
    }

    /// The times `offset + k × period` in (`after`, `upTo`].
    static func times(after: Int64, upTo: Int64, offset: Int64, period: Int64) -> [Int64] {
        var time = offset + (after - offset) / period * period
        while time <= after { time += period }
        while time - period > after { time -= period }
        return Array(stride(from: time, through: upTo, by: Int(period)))
    }
}
