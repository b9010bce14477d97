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
/// reaches the time it was sent (docs/apps/thephone-backend.md, "Hosted in the daemon").
///
/// Every change is also kept as a ``BackendOperation`` until ``takeOperations()``: the daemon
/// appends them to the backend's journal (the state is a deterministic function of its
/// operations), so a save costs the change, not the whole backend.
public final class BackendHost: @unchecked Sendable {
    public let name: String
    private let lock = NSLock()
    private var backend: PhoneBackend
    private var outbox: [String: [PushMessage]]
    /// The changes since ``takeOperations()`` last took them.
    private var operations: [BackendOperation] = []

    /// A new, empty backend whose clock starts at `now` (milliseconds since 1970).
    public init(name: String, now: Int64) {
        self.name = name
        backend = PhoneBackend(name: name, now: now)
        outbox = [:]
    }

    /// A backend as ``stored`` saved it, then `operations` applied again, in order.
    public init(restoring stored: StoredBackend, operations: [BackendOperation] = []) {
        name = stored.name
        backend = stored.backend
        outbox = stored.outbox
        for operation in operations { apply(operation) }
    }

    /// The whole backend for a new snapshot, and the operations not taken yet dropped: the
    /// snapshot holds them (one lock, so no operation is both in it and after it).
    public func snapshotTakingOperations() -> StoredBackend {
        lock.withLock {
            operations = []
            return StoredBackend(name: name, backend: backend, outbox: outbox, journal: nil)
        }
    }

    /// The changes made since the last call, in order, for the journal.
    public func takeOperations() -> [BackendOperation] {
        lock.withLock {
            defer { operations = [] }
            return operations
        }
    }

    /// The backend's state, read under the lock (`backend.*` methods).
    public func read<T>(_ body: (PhoneBackend) throws -> T) rethrows -> T {
        try lock.withLock { try body(backend) }
    }

    /// The seed's sync for `user` at the backend's clock, as a raw client (`backend.sync`).
    public func sync(user: String, events: [SyncRequest.Event], lastSync: Int64) throws(PhoneBackendError) -> SyncResponse {
        lock.lock()
        defer { lock.unlock() }
        let operation = BackendOperation.sync(user: user, events: events, lastSync: lastSync)
        let response = try Self.sync(operation, on: &backend)
        operations.append(operation)
        return response
    }

    /// A request from the device `routes` serve, at the backend's clock once moved to `now`.
    ///
    /// A request refused at the door (not signed in, a body that does not decode, no such
    /// route) that moved the clock past no job of any effect changed nothing, and is not kept:
    /// the journal would otherwise grow by every refused request, whole — a signed-out Android
    /// phone's sync worker sends every unsynced event each time, and a soak's ten such phones
    /// wrote 2 GB in 17 minutes (docs/reliability.md).
    func serve(_ request: NetworkRequest, with routes: PhoneBackendRoutes, at now: Int64) -> HTTPResponse {
        lock.withLock {
            let moved = advance(to: now)
            let served = routes.serve(request, on: &backend)
            if moved || !served.refusedAtTheDoor {
                operations.append(
                    .serve(device: routes.device, timezone: routes.timezone, platform: routes.platform, request: request, now: now))
            }
            return served.response
        }
    }

    /// `device`'s clock reached `now`: the backend's jobs run up to it, and the pushes sent to
    /// `device` by then are handed over.
    func tick(device: String, at now: Int64) -> [PushMessage] {
        lock.withLock {
            let changed = advance(to: now)
            let delivered = takePushes(for: device, upTo: now)
            // A move of the clock that ran no job to any effect is not kept: after a restart the
            // next operation moves the clock past it again, running the same jobs to the same end.
            if changed || !delivered.isEmpty { operations.append(.tick(device: device, now: now)) }
            return delivered
        }
    }

    private func takePushes(for device: String, upTo now: Int64) -> [PushMessage] {
        guard let waiting = outbox[device], waiting.contains(where: { $0.sentAt <= now }) else { return [] }
        let kept = waiting.filter { $0.sentAt > now }
        outbox[device] = kept.isEmpty ? nil : kept
        return waiting.filter { $0.sentAt <= now }
    }

    /// Moves the clock (never back), running the jobs due; temptations become pushes. Returns
    /// whether a job changed anything.
    @discardableResult
    private func advance(to now: Int64) -> Bool {
        guard now > backend.clock else { return false }
        let jobs = backend.advanceClock(to: now)
        for case .processTemptations(_, let sent) in jobs {
            for temptation in sent {
                let push = PushMessage(
                    title: Self.pushTitle, body: temptation.body, category: temptation.kind.rawValue, sentAt: temptation.at)
                for device in temptation.devices { outbox[device, default: []].append(push) }
            }
        }
        return jobs.contains(where: \.changedSomething)
    }

    /// Applies a journalled operation again, as it ran (restoring).
    private func apply(_ operation: BackendOperation) {
        switch operation {
        case .serve(let device, let timezone, let platform, let request, let now):
            advance(to: now)
            _ = PhoneBackendRoutes(device: device, timezone: timezone, platform: platform).serve(request, on: &backend).response
        case .tick(let device, let now):
            advance(to: now)
            _ = takePushes(for: device, upTo: now)
        case .sync:
            _ = try? Self.sync(operation, on: &backend)
        }
    }

    private static func sync(_ operation: BackendOperation, on backend: inout PhoneBackend) throws(PhoneBackendError) -> SyncResponse {
        guard case .sync(let user, let events, let lastSync) = operation else { preconditionFailure("not a sync") }
        return try backend.syncEvents(
            username: user, request: SyncRequest(events: events, lastSync: lastSync, clientTime: backend.clock), now: backend.clock)
    }

    /// A temptation's title (APPS.md §4.4: a choice; the seed's push payload gives only a body).
    static let pushTitle = "The Phone"
}

/// A backend as saved: its name, the seed's state and the pushes not yet delivered; the daemon
/// adds which journal continues it.
public struct StoredBackend: Codable, Sendable {
    public var name: String
    public var backend: PhoneBackend
    public var outbox: [String: [PushMessage]]
    /// The generation of the journal that continues this snapshot (`<name>.<G>.journal`).
    public var journal: Int?
}

/// A change to a backend, as its journal keeps it (`<state dir>/backends/<name>.journal`, one per
/// line): applied again in order to the last snapshot, it gives the backend back exactly.
public enum BackendOperation: Codable, Sendable, Equatable {
    /// A device's request, with what the routes need to know of the device.
    case serve(device: String, timezone: String, platform: String, request: NetworkRequest, now: Int64)
    /// A device's tick that ran a job to some effect or took pushes.
    case tick(device: String, now: Int64)
    /// A raw `backend.sync`.
    case sync(user: String, events: [SyncRequest.Event], lastSync: Int64)

    /// The time the operation moves the backend's clock to (a raw sync runs at the clock).
    public var now: Int64? {
        switch self {
        case .serve(_, _, _, _, let now), .tick(_, let now): now
        case .sync: nil
        }
    }
}
