import Foundation
@_spi(Host) import SimulatediOS
import ThePhoneBackend

/// One running instance of The Phone's backend (docs/apps/thephone-backend.md, "Instances"): the
/// seed's server state, the pushes it sent that devices have not picked up yet, and its clock,
/// which is the latest time any of its devices has reached. Shared by the worlds of several
/// devices, each on its own thread: every access holds the lock, and each is short (one request,
/// one tick).
///
/// Jobs run as the clock passes their times (``PhoneBackend/advanceClock(to:)``): a temptation
/// becomes a push to every device of the user, waiting in ``outbox`` until that device's clock
/// reaches the time it was sent (docs/apps/thephone-backend.md, "Hosted in the daemon").
///
/// Every change is also kept as a ``BackendOperation`` until ``takeOperations()``: the daemon
/// appends them to the backend's journal (the state is a deterministic function of its operations),
/// so a save costs the change, not the whole backend (docs/performance.md, "BackendHost: a journal,
/// not the whole backend"). A move of the clock that ran no job to any effect is kept as one
/// ``BackendOperation/clock(now:)``, before the next operation or when the operations are taken,
/// not as a line per tick.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
public final class BackendHost: @unchecked Sendable {
    public let name: String
    private let lock = NSLock()
    private var backend: PhoneBackend
    private var outbox: [String: [PushMessage]]
    /// The changes since ``takeOperations()`` last took them.
    private var operations: [BackendOperation]
    /// The clock where the operations kept so far leave it once applied again.
    private var journalledClock: Int64

    /// A new, empty backend whose clock starts at `now` (milliseconds since 1970); its first
    /// operation says so (``BackendOperation/created(now:)``).
    public init(name: String, now: Int64) {
        self.name = name
        backend = PhoneBackend(name: name, now: now)
        outbox = [:]
        operations = [.created(now: backend.clock)]
        journalledClock = backend.clock
    }

    /// A backend as `stored` saved it; its journal is applied again with ``replay(_:)``.
    public init(restoring stored: StoredBackend) {
        name = stored.name
        backend = stored.backend
        outbox = stored.outbox
        operations = []
        journalledClock = backend.clock
    }

    /// Applies a journalled operation again, as it ran (restoring). False when it cannot have
    /// run: a time outside ``PhoneBackend/times``, a raw sync the backend refuses (one is
    /// journalled only once it succeeded), a creation on a backend that is not the empty one it
    /// made — each changing nothing — or a device's request answered otherwise than it was,
    /// which did change the backend (the caller restores it again up to the line before). Each
    /// is a sign that the journal does not continue this backend: a snapshot that reads but is
    /// wrong, a line changed.
    public func replay(_ operation: BackendOperation) -> Bool {
        lock.withLock {
            guard operation.now.map(PhoneBackend.times.contains) ?? true else { return false }
            switch operation {
            case .created(let now):
                guard outbox.isEmpty, backend == PhoneBackend(name: name, now: now) else { return false }
            case .clock(let now):
                advance(to: now)
            case .serve(let device, let timezone, let platform, let request, let now, let status):
                advance(to: now)
                let served = PhoneBackendRoutes(device: device, timezone: timezone, platform: platform).serve(request, on: &backend)
                guard status.map({ $0 == served.response.statusCode }) ?? true else { return false }
            case .tick(let device, let now):
                advance(to: now)
                _ = takePushes(for: device, upTo: now)
            case .sync:
                guard (try? Self.sync(operation, on: &backend)) != nil else { return false }
            }
            journalledClock = backend.clock
            return true
        }
    }

    /// The whole backend for a new snapshot, with the operations not taken yet, which it holds
    /// (one lock, so that no operation is both in it and after it): the caller appends them to
    /// the journal the snapshot follows, so that the old snapshot and that journal still give
    /// the new snapshot back.
    public func snapshotTakingOperations() -> (snapshot: StoredBackend, operations: [BackendOperation]) {
        lock.withLock {
            (StoredBackend(name: name, backend: backend, outbox: outbox, journal: nil), takeKept())
        }
    }

    /// The changes made since the last call, in order, for the journal.
    public func takeOperations() -> [BackendOperation] {
        lock.withLock { takeKept() }
    }

    /// Operations taken that could not be written, given back to be taken again, before the
    /// ones kept since.
    public func putBack(_ taken: [BackendOperation]) {
        lock.withLock { operations = taken + operations }
    }

    private func takeKept() -> [BackendOperation] {
        keepClock(at: backend.clock)
        defer { operations = [] }
        return operations
    }

    /// Keeps `operation`, which ran from the clock at `before`: a move of the clock up to
    /// `before` that was not kept is kept first, so that the operation runs at the same time
    /// when applied again.
    private func keep(_ operation: BackendOperation, from before: Int64) {
        keepClock(at: before)
        operations.append(operation)
        journalledClock = backend.clock
    }

    private func keepClock(at clock: Int64) {
        guard clock != journalledClock else { return }
        operations.append(.clock(now: clock))
        journalledClock = clock
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
        keep(operation, from: backend.clock)
        return response
    }

    /// A request from the device `routes` serve, at the backend's clock once moved to `now`.
    ///
    /// A request refused at the door (not signed in, a body that does not decode, no such
    /// route) that moved the clock past no job of any effect changed nothing, and is not kept:
    /// the journal would otherwise grow by every refused request, whole (docs/performance.md, "BackendHost:
    /// refusals at the door not journalled").
    func serve(_ request: NetworkRequest, with routes: PhoneBackendRoutes, at now: Int64) -> HTTPResponse {
        lock.withLock {
            let before = backend.clock
            let moved = advance(to: now)
            let served = routes.serve(request, on: &backend)
            if moved || !served.refusedAtTheDoor {
                keep(
                    .serve(
                        device: routes.device, timezone: routes.timezone, platform: routes.platform, request: request, now: now,
                        status: served.response.statusCode),
                    from: before)
            }
            return served.response
        }
    }

    /// `device`'s clock reached `now`: the backend's jobs run up to it, and the pushes sent to
    /// `device` by then are handed over.
    func tick(device: String, at now: Int64) -> [PushMessage] {
        lock.withLock {
            let before = backend.clock
            let changed = advance(to: now)
            let delivered = takePushes(for: device, upTo: now)
            // A move of the clock that ran no job to any effect is kept later, as one `clock`
            // operation (``keepClock(at:)``): applied again, it runs the same jobs to the same end.
            if changed || !delivered.isEmpty { keep(.tick(device: device, now: now), from: before) }
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

    private static func sync(_ operation: BackendOperation, on backend: inout PhoneBackend) throws(PhoneBackendError) -> SyncResponse {
        guard case .sync(let user, let events, let lastSync) = operation else { preconditionFailure("not a sync") }
        return try backend.syncEvents(
            username: user, request: SyncRequest(events: events, lastSync: lastSync, clientTime: backend.clock), now: backend.clock)
    }

    /// A temptation's title (a choice, docs/apps/thephone-backend.md, "Pushes"; the seed's push
    /// payload gives only a body).
    static let pushTitle = "The Phone"
}

/// A backend as saved: its name, the seed's state and the pushes not yet delivered; the daemon
/// adds which journal continues it.
public struct StoredBackend: Codable, Sendable, Equatable {
    public var name: String
    public var backend: PhoneBackend
    public var outbox: [String: [PushMessage]]
    /// The generation of the journal that continues this snapshot (`<name>.<G>.journal`).
    public var journal: Int?

    /// The backend `name` as made with its clock at `now` (``BackendHost/init(name:now:)``),
    /// continued by the journal of `generation`.
    public static func created(name: String, now: Int64, journal generation: Int? = nil) -> StoredBackend {
        StoredBackend(name: name, backend: PhoneBackend(name: name, now: now), outbox: [:], journal: generation)
    }
}
