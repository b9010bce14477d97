/// A scheduled job the backend ran on its own clock (docs/apps/thephone-backend.md, "Jobs").
public enum BackendJob: Codable, Sendable, Equatable {
    /// The seed's `purgeOldEvents` ("Data Retention Job", daily at 03:00 UTC) at `at`, having
    /// deleted `purged` events.
    case purgeOldEvents(at: Int64, purged: Int)
    /// The seed's `weeklyReset` ("Background Jobs", Monday 00:00 UTC) at `at`.
    case weeklyReset(at: Int64)
    /// The seed's `processTemptations` ("Runs every 5 minutes") at `at`, which sent `sent`.
    case processTemptations(at: Int64, sent: [Temptation])

    /// Whether the job changed the backend: events purged, caches dropped, temptations sent (and
    /// random draws made for them).
    public var changedSomething: Bool {
        switch self {
        case .purgeOldEvents(_, let purged): purged > 0
        case .weeklyReset: true
        case .processTemptations(_, let sent): !sent.isEmpty
        }
    }

    /// When the job ran, milliseconds since 1970.
    public var at: Int64 {
        switch self {
        case .purgeOldEvents(let at, _), .weeklyReset(let at), .processTemptations(let at, _): at
        }
    }
}
