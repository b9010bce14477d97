/// The Phone's backend (seed 001, "Backend Implementation") as one deterministic value: the seed's
/// PostgreSQL tables and its Redis keys, with the seed's services as methods that are given the
/// backend's `now` (milliseconds since 1970, the seed's unit) and return the seed's response
/// shapes. No I/O, no wall clock; ids come from counters and random draws from the backend's own
/// seeded generator, so the same requests in the same order give the same results and the same
/// encoded state (docs/apps/thephone-backend.md, "Determinism"). Hosting it (one per backend name,
/// persisted, shared by devices) is the daemon's part (docs/apps/thephone-backend.md, "Hosted in
/// the daemon").
public struct PhoneBackend: Codable, Sendable, Equatable {
    /// The backend's time: the latest time ``advanceClock(to:)`` was given, never going back
    /// (docs/apps/thephone-backend.md, "The clock"); the scheduled jobs have run up to it.
    public internal(set) var clock: Int64
    var identifiers = ServerIdentifiers()
    /// The seed's `users`, by id.
    var users: [String: PhoneUser] = [:]
    /// The seed's `events`, by user id, each user's in insertion order.
    var events: [String: UserEvents] = [:]
    /// The seed's `weekly_scores`, by user id, then by `week_start`.
    var weeklyScores: [String: [String: WeeklyScore]] = [:]
    /// The seed's `groups` with their `group_members`, by id.
    var groups: [String: PhoneGroup] = [:]
    /// The seed's Redis keys `leaderboard:<group id>:<UTC Monday>`.
    var leaderboardCache: [String: CachedLeaderboard] = [:]
    /// The seed's `temptation_settings`, by user id.
    var temptationSettings: [String: TemptationSettings] = [:]
    /// The seed's Redis keys `next_temptation:<user id>`: when the next temptation is due.
    var nextTemptation: [String: Int64] = [:]
    /// The temptations' random draws (the seed's `Math.random()`).
    var random: BackendRandom
    /// The instant (ms) the last sync ran at; nil in a backend saved before it was kept, whose
    /// syncs all ran at or before its ``clock`` (``syncInstant(now:)``).
    var lastSyncInstant: Int64?

    /// An empty backend named `name` whose clock starts at `now`; its generator is seeded from
    /// the name (docs/apps/thephone-backend.md, "Instances").
    public init(name: String = "default", now: Int64) {
        clock = now
        random = BackendRandom(seed: BackendRandom.seed(name: name))
        lastSyncInstant = now - 1
    }
}

extension PhoneBackend {
    /// The times the backend computes with — its clock, the `now` it is given, events'
    /// timestamps — in milliseconds since 1970, lie within ±2^61 (73 million years), where
    /// their differences and the jobs' periods added to them cannot overflow. A device stays
    /// far inside (its time is at most 2^53 ms past a start in years 1–9999); a backend file
    /// beyond it is damaged and is not read (a clock of `Int64.min` once trapped a restart).
    public static let times: ClosedRange<Int64> = -(1 << 61)...(1 << 61)

    /// Whether the clock, the last sync's instant and every event's timestamp are within ``times``.
    public var timesAreWithinRange: Bool {
        Self.times.contains(clock) && Self.times.contains(lastSyncInstant ?? clock)
            && events.values.allSatisfy { $0.rows.allSatisfy { Self.times.contains($0.timestamp) } }
    }
}
