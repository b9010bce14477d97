import Foundation
@_spi(Host) import SimulatediOS
import ThePhoneBackend

/// One running instance of The Phone's backend (APPS.md §4.6): the seed's server state, the
/// pushes it sent that devices have not picked up yet, and its clock, which is the latest time
/// any of its devices has reached. Shared by the worlds of several devices, each on its own
/// thread: every access holds the lock, and each is short (one request, one tick).
///
/// Jobs run as the clock passes their times (``PhoneBackend/advanceClock(to:)``): a temptation
/// becomes a push to every device of the user, waiting in ``outbox`` until that device's clock
/// reaches the time it was sent (docs/apps/thephone.md, "The backend's clock").
public final class BackendHost: @unchecked Sendable {
    public let name: String
    private let lock = NSLock()
    private var backend: PhoneBackend
    private var outbox: [String: [PushMessage]]
    /// Bumped by every change: the daemon saves the backend when it moved since the last save.
    public private(set) var revision = 0

    /// A new, empty backend whose clock starts at `now` (milliseconds since 1970).
    public init(name: String, now: Int64) {
        self.name = name
        backend = PhoneBackend(name: name, now: now)
        outbox = [:]
    }

    /// A backend as ``stored`` saved it.
    public init(restoring stored: StoredBackend) {
        name = stored.name
        backend = stored.backend
        outbox = stored.outbox
    }

    /// What a save keeps (`<state dir>/backends/<name>.json`).
    public var stored: StoredBackend {
        lock.withLock { StoredBackend(name: name, backend: backend, outbox: outbox) }
    }

    /// The backend's state, read under the lock (`backend.*` methods).
    public func read<T>(_ body: (PhoneBackend) throws -> T) rethrows -> T {
        try lock.withLock { try body(backend) }
    }

    /// Changes the backend under the lock, its clock first moved to `now` (a raw `backend.sync`).
    public func change<T>(at now: Int64, _ body: (inout PhoneBackend) throws -> T) rethrows -> T {
        try lock.withLock {
            advance(to: now)
            revision += 1
            return try body(&backend)
        }
    }

    /// A request from `device`, served at the backend's clock once moved to `now`.
    func serve(_ request: NetworkRequest, with routes: PhoneBackendRoutes, at now: Int64) -> HTTPResponse {
        lock.withLock {
            advance(to: now)
            revision += 1
            return routes.serve(request, on: &backend)
        }
    }

    /// `device`'s clock reached `now`: the backend's jobs run up to it, and the pushes sent to
    /// `device` by then are handed over.
    func tick(device: String, at now: Int64) -> [PushMessage] {
        lock.withLock {
            advance(to: now)
            guard let waiting = outbox[device], waiting.contains(where: { $0.sentAt <= now }) else { return [] }
            outbox[device] = waiting.filter { $0.sentAt > now }
            if outbox[device]?.isEmpty == true { outbox[device] = nil }
            revision += 1
            return waiting.filter { $0.sentAt <= now }
        }
    }

    /// Moves the clock (never back), running the jobs due; temptations become pushes.
    private func advance(to now: Int64) {
        guard now > backend.clock else { return }
        revision += 1
        for case .processTemptations(_, let sent) in backend.advanceClock(to: now) {
            for temptation in sent {
                let push = PushMessage(
                    title: Self.pushTitle, body: temptation.body, category: temptation.kind.rawValue, sentAt: temptation.at)
                for device in temptation.devices { outbox[device, default: []].append(push) }
            }
        }
    }

    /// A temptation's title (APPS.md §4.4: a choice; the seed's push payload gives only a body).
    static let pushTitle = "The Phone"
}

/// A backend as saved: its name, the seed's state and the pushes not yet delivered.
public struct StoredBackend: Codable, Sendable {
    public var name: String
    public var backend: PhoneBackend
    public var outbox: [String: [PushMessage]]
}
