import Foundation
import JSONValues
@_spi(Host) import SimulatediOS

/// One running instance of an app's server (docs/sdk.md, "Your app's own server"): its state, the
/// pushes it sent that devices have not picked up yet, and its clock, which is the latest time
/// any of its devices has reached. Shared by the worlds of several devices, each on its own
/// thread: every access holds the lock, and each is short (one request, one tick).
///
/// Jobs run as the clock passes their times (``AppServer/advance(to:)``): a push waits in
/// ``outbox`` until its device's clock reaches the time it was sent.
///
/// Every change is also kept as a ``ServerOperation`` until ``takeOperations()``: the daemon
/// appends them to the instance's journal (the state is a deterministic function of its
/// operations), so a save costs the change, not the whole instance (docs/performance.md,
/// "BackendHost: a journal, not the whole backend"). A move of the clock that ran no job to any
/// effect is kept as one ``ServerOperation/clock(now:)``, before the next operation or when the
/// operations are taken, not as a line per tick.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
public final class ServerHost: @unchecked Sendable {
    public let registration: ServerRegistration
    /// The instance's name (`default`, or the one its devices' setting names).
    public let name: String
    private let lock = NSLock()
    private var state: any ServerState
    private var outbox: [String: [PushMessage]]
    /// The changes since ``takeOperations()`` last took them.
    private var operations: [ServerOperation]
    /// The clock where the operations kept so far leave it once applied again.
    private var journalledClock: Int64

    /// A new, empty instance whose clock starts at `now` (milliseconds since 1970); its first
    /// operation says so (``ServerOperation/created(now:)``).
    public init(_ registration: ServerRegistration, name: String, now: Int64) {
        self.registration = registration
        self.name = name
        state = registration.kind.make(instance: name, now: now)
        outbox = [:]
        operations = [.created(now: state.clock)]
        journalledClock = state.clock
    }

    /// An instance as `stored` saved it; its journal is applied again with ``replay(_:)``.
    public init(_ registration: ServerRegistration, restoring stored: StoredServer) {
        self.registration = registration
        name = stored.name
        state = stored.state.copy()
        outbox = stored.outbox
        operations = []
        journalledClock = state.clock
    }

    /// Applies a journalled operation again, as it ran (restoring). False when it cannot have
    /// run: a time outside the server's times, a call the server refuses (one is journalled only
    /// once it succeeded), a creation on an instance that is not the empty one it made — each
    /// changing nothing — or a device's request answered otherwise than it was, which did change
    /// the instance (the caller restores it again up to the line before). Each is a sign that the
    /// journal does not continue this instance: a snapshot that reads but is wrong, a line changed.
    public func replay(_ operation: ServerOperation) -> Bool {
        lock.withLock {
            guard operation.now.map(registration.kind.times.contains) ?? true else { return false }
            switch operation {
            case .created(let now):
                guard outbox.isEmpty, state.isFresh(instance: name, now: now) else { return false }
            case .clock(let now):
                advance(to: now)
            case .serve(let caller, let request, let now, let status):
                advance(to: now)
                let served = state.serve(request, from: caller)
                guard status.map({ $0 == served.response.statusCode }) ?? true else { return false }
            case .tick(let device, let now):
                advance(to: now)
                _ = takePushes(for: device, upTo: now)
            case .call(let method, let params):
                guard (try? state.call(method, params: params, context: ServerCallContext(instance: name, device: nil, deviceInstance: nil)))
                    != nil
                else { return false }
            }
            journalledClock = state.clock
            return true
        }
    }

    /// The whole instance for a new snapshot, with the operations not taken yet, which it holds
    /// (one lock, so that no operation is both in it and after it): the caller appends them to
    /// the journal the snapshot follows, so that the old snapshot and that journal still give
    /// the new snapshot back.
    public func snapshotTakingOperations() -> (snapshot: StoredServer, operations: [ServerOperation]) {
        lock.withLock { (StoredServer(name: name, state: state.copy(), outbox: outbox, journal: nil), takeKept()) }
    }

    /// The changes made since the last call, in order, for the journal.
    public func takeOperations() -> [ServerOperation] {
        lock.withLock { takeKept() }
    }

    /// Operations taken that could not be written, given back to be taken again, before the
    /// ones kept since.
    public func putBack(_ taken: [ServerOperation]) {
        lock.withLock { operations = taken + operations }
    }

    private func takeKept() -> [ServerOperation] {
        keepClock(at: state.clock)
        defer { operations = [] }
        return operations
    }

    /// Keeps `operation`, which ran from the clock at `before`: a move of the clock up to
    /// `before` that was not kept is kept first, so that the operation runs at the same time
    /// when applied again.
    private func keep(_ operation: ServerOperation, from before: Int64) {
        keepClock(at: before)
        operations.append(operation)
        journalledClock = state.clock
    }

    private func keepClock(at clock: Int64) {
        guard clock != journalledClock else { return }
        operations.append(.clock(now: clock))
        journalledClock = clock
    }

    /// Reads the instance's state as its server's type (a test, a harness); nil for another type.
    public func read<Server: AppServer, T>(_ type: Server.Type, _ body: (Server) throws -> T) rethrows -> T? {
        try lock.withLock { try state.value(as: type).map(body) }
    }

    /// The instance's clock.
    public var clock: Int64 { lock.withLock { state.clock } }

    /// The instance's row for `server.list`, as its server writes it.
    public func summary() throws -> JSONValue { try lock.withLock { try state.summary() } }

    /// An observer's call of `method` (`server.call`): a read answers at once; a write changes
    /// the instance at its clock and is kept for the journal.
    public func call(_ method: String, params: JSONValue, context: ServerCallContext) throws(ServerCallError) -> JSONValue {
        lock.lock()
        defer { lock.unlock() }
        let answer = try state.call(method, params: params, context: context)
        if registration.changesState(method) {
            keep(.call(method: method, params: params), from: state.clock)
        }
        return answer
    }

    /// A request from `caller`, at the instance's clock once moved to `now`.
    ///
    /// A request refused before any change that moved the clock past no job of any effect
    /// changed nothing, and is not kept: the journal would otherwise grow by every refused
    /// request, whole (docs/performance.md, "BackendHost: refusals at the door not journalled").
    func serve(_ request: NetworkRequest, from caller: ServerCaller, at now: Int64) -> HTTPResponse {
        lock.withLock {
            let before = state.clock
            let moved = advance(to: now)
            let served = state.serve(request, from: caller)
            if moved || !served.refusedBeforeAnyChange {
                keep(.serve(caller: caller, request: request, now: now, status: served.response.statusCode), from: before)
            }
            return served.response
        }
    }

    /// `device`'s clock reached `now`: the jobs run up to it, and the pushes sent to `device` by
    /// then are handed over.
    func tick(device: String, at now: Int64) -> [PushMessage] {
        lock.withLock {
            let before = state.clock
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

    /// Moves the clock (never back), running the jobs due; their pushes wait in the outbox.
    /// Returns whether a job changed anything.
    @discardableResult
    private func advance(to now: Int64) -> Bool {
        guard now > state.clock else { return false }
        let jobs = state.advance(to: now)
        for push in jobs.pushes { outbox[push.device, default: []].append(push.message) }
        return jobs.changedSomething
    }
}

/// An instance as saved: its name, its state and the pushes not yet delivered; the daemon adds
/// which journal continues it. On disk: `{"name","state","outbox","journal"}` (earlier builds
/// spelt `state` `backend`, and are read as well).
public struct StoredServer: Sendable, Equatable {
    public var name: String
    @_spi(Host) public let state: any ServerState
    public var outbox: [String: [PushMessage]]
    /// The generation of the journal that continues this snapshot (`<name>.<G>.journal`).
    public var journal: Int?

    init(name: String, state: any ServerState, outbox: [String: [PushMessage]], journal: Int?) {
        self.name = name
        self.state = state
        self.outbox = outbox
        self.journal = journal
    }

    /// The instance `name` as made with its clock at `now` (``ServerHost/init(_:name:now:)``),
    /// continued by the journal of `generation`.
    public static func created(_ registration: ServerRegistration, name: String, now: Int64, journal generation: Int? = nil)
        -> StoredServer
    {
        StoredServer(name: name, state: registration.kind.make(instance: name, now: now), outbox: [:], journal: generation)
    }

    /// A snapshot file's bytes, read by `registration`'s server type; throws what makes it unreadable.
    public static func decode(_ data: Data, of registration: ServerRegistration) throws -> StoredServer {
        let file = try registration.kind.decodeSnapshot(data)
        guard file.state.timesAreWithinRange else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "a time outside \(registration.kind.times) ms since 1970"))
        }
        return StoredServer(name: file.name, state: file.state, outbox: file.outbox, journal: file.journal)
    }

    /// The snapshot file's bytes.
    public func bytes() throws -> [UInt8] {
        try state.snapshotBytes(name: name, outbox: outbox, journal: journal)
    }

    public static func == (lhs: StoredServer, rhs: StoredServer) -> Bool {
        lhs.name == rhs.name && lhs.state.isEqual(to: rhs.state) && lhs.outbox == rhs.outbox && lhs.journal == rhs.journal
    }
}
