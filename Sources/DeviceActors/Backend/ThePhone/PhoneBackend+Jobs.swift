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

    /// Moves the backend's clock to `now` if later (it never goes back) and runs, in time order,
    /// each retention (03:00 UTC) and weekly reset (Monday 00:00 UTC) whose time is in
    /// (old clock, `now`], each at its own time.
    public mutating func advanceClock(to now: Int64) -> [BackendJob] {
        guard now > clock else { return [] }
        let purges = Self.times(after: clock, upTo: now, offset: Self.retentionHour, period: Self.day)
        let resets = Self.times(after: clock, upTo: now, offset: Self.firstMonday, period: Self.week)
        clock = now
        let due = (purges.map { (time: $0, isPurge: true) } + resets.map { (time: $0, isPurge: false) }).sorted { $0.time < $1.time }
        return due.map { job in
            if job.isPurge {
                return .purgeOldEvents(at: job.time, purged: purgeOldEvents(now: job.time))
            }
            weeklyReset()
            return .weeklyReset(at: job.time)
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

    /// The times `offset + k × period` in (`after`, `upTo`].
    static func times(after: Int64, upTo: Int64, offset: Int64, period: Int64) -> [Int64] {
        var time = offset + (after - offset) / period * period
        while time <= after { time += period }
        while time - period > after { time -= period }
        return Array(stride(from: time, through: upTo, by: Int(period)))
    }
}
