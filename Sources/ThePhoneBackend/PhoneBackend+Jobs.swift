/// The seed's scheduled jobs, run as the backend's clock passes their times
/// (docs/apps/thephone-backend.md, "Jobs").
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

    /// Moves the backend's clock to `now` if later (it never goes back; at most to the end of
    /// ``times``) and runs each job whose
    /// time is in (old clock, `now`], each at its own time, in time order (at one instant:
    /// retention, weekly reset, temptations): retention daily at 03:00 UTC, the weekly reset
    /// Monday 00:00 UTC, temptations every 5 minutes at :00, :05, … Returns the jobs that ran,
    /// temptation runs only when they sent something.
    ///
    /// The jobs are walked one at a time, never listed ahead: a clock moved ten thousand years
    /// (a damaged snapshot, a device advanced offline for long) once asked for an array of a
    /// billion temptation times. Two stretches where no job can change anything are passed
    /// over, the state ending exactly as if each job had run: temptation runs while no user can
    /// be tempted (no one has them on, is verified and last locked — a catch-up only removes
    /// events, so no one becomes so), and, once no event and no cached leaderboard is left,
    /// every job but those of the last week before `now` (the list then leaves out those no-ops).
    public mutating func advanceClock(to requested: Int64) -> [BackendJob] {
        let now = min(requested, Self.times.upperBound)
        guard now > clock else { return [] }
        var retention = Self.first(after: clock, upTo: now, offset: Self.retentionHour, period: Self.day)
        var weekly = Self.first(after: clock, upTo: now, offset: Self.firstMonday, period: Self.week)
        var temptations = Self.first(after: clock, upTo: now, offset: 0, period: Self.temptationPeriod)
        clock = now
        var jobs: [BackendJob] = []
        /// With no one to tempt, the runs left would only drop the expired `next_temptation`
        /// keys: the last of them does so at once.
        func passOverTemptationsIfNoOneCanBeTempted() {
            guard let next = temptations, !anyoneCanBeTempted else { return }
            _ = processTemptations(now: next + (now - next) / Self.temptationPeriod * Self.temptationPeriod)
            temptations = nil
        }
        passOverTemptationsIfNoOneCanBeTempted()
        while let time = Self.earliest(retention, weekly, temptations) {
            if time == retention {
                let purged = purgeOldEvents(now: time)
                jobs.append(.purgeOldEvents(at: time, purged: purged))
                retention = Self.next(after: time, upTo: now, period: Self.day)
                if purged > 0 { passOverTemptationsIfNoOneCanBeTempted() }
            }
            if time == weekly {
                weeklyReset()
                jobs.append(.weeklyReset(at: time))
                weekly = Self.next(after: time, upTo: now, period: Self.week)
            }
            if time == temptations {
                let sent = processTemptations(now: time)
                if !sent.isEmpty { jobs.append(.processTemptations(at: time, sent: sent)) }
                temptations = Self.next(after: time, upTo: now, period: Self.temptationPeriod)
            }
            let lastWeek = now - Self.week - Self.day
            if temptations == nil, time < lastWeek, leaderboardCache.isEmpty, events.values.allSatisfy(\.isEmpty) {
                retention = Self.first(after: lastWeek, upTo: now, offset: Self.retentionHour, period: Self.day)
                weekly = Self.first(after: lastWeek, upTo: now, offset: Self.firstMonday, period: Self.week)
            }
        }
        return jobs
    }

    /// Whether a temptation run could send anything: someone has temptations on, is verified
    /// and last locked.
    private var anyoneCanBeTempted: Bool {
        allUsers.contains { user in
            temptationSettings[user.id]?.enabled == true && user.trackingStatus == .verified
                && lastEvent(userId: user.id)?.eventType == .lock
        }
    }

    /// The seed's `purgeOldEvents`: deletes every event whose timestamp is more than 90 days
    /// before `now` (`timestamp < NOW() - INTERVAL '90 days'`); returns how many. Scores stay.
    @discardableResult
    public mutating func purgeOldEvents(now: Int64) -> Int {
        var purged = 0
        for id in events.keys {
            purged += events[id]?.removeAll { $0.timestamp < now - Self.retention } ?? 0
        }
        return purged
    }

    /// The seed's `weeklyReset`: drops every cached leaderboard (`redis.keys('leaderboard:*')`).
    public mutating func weeklyReset() {
        leaderboardCache = [:]
    }

    /// The first time `offset + k × period` in (`after`, `upTo`], if any.
    static func first(after: Int64, upTo: Int64, offset: Int64, period: Int64) -> Int64? {
        var time = offset + (after - offset) / period * period
        while time <= after { time += period }
        while time - period > after { time -= period }
        return time <= upTo ? time : nil
    }

    /// The earliest of the jobs' next times, if any is left.
    private static func earliest(_ times: Int64?...) -> Int64? {
        times.compactMap { $0 }.min()
    }

    /// `time + period` if it is at most `upTo` (never overflowing).
    static func next(after time: Int64, upTo: Int64, period: Int64) -> Int64? {
        time <= upTo - period ? time + period : nil
    }
}
