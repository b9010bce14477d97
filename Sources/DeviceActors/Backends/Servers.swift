import Foundation
@_spi(Host) import SimulatediOS

/// The servers devices reach: The Phone's backends by name (docs/apps/thephone-backend.md,
/// "Instances"). The daemon keeps one directory for all its devices (backend `default` unless a
/// device's config names another); a scenario's schedule, a test device and anything else made
/// without one gets a private directory of its own. A backend is made the first time a device names
/// it, its clock at that device's time.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
public final class Servers: @unchecked Sendable {
    private let lock = NSLock()
    private var backends: [String: BackendHost] = [:]

    /// A directory holding `hosts` (backends read back from disk), or none yet.
    public init(_ hosts: [BackendHost] = []) {
        for host in hosts { backends[host.name] = host }
    }

    /// The backend `name`, made (its clock at `now`, ms since 1970) if it does not exist yet.
    public func backend(named name: String, now: Int64) -> BackendHost {
        lock.withLock {
            if let existing = backends[name] { return existing }
            let made = BackendHost(name: name, now: now)
            backends[name] = made
            return made
        }
    }

    /// The backend `name` if it exists.
    public func existing(_ name: String) -> BackendHost? {
        lock.withLock { backends[name] }
    }

    /// Every backend, by name.
    public var all: [BackendHost] {
        lock.withLock { backends.values.sorted { $0.name < $1.name } }
    }
}
