import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// One hosted device and the lane that owns it (``DeviceLanes``): every request for the device
/// runs on that lane, one at a time, while different devices run in parallel. A request queued
/// on the lane by its connection runs here at once; one from elsewhere (a batch, `device.list`,
/// shutdown) waits its turn on the lane.
///
/// A request that changed the device (``SimulatedDevice/changes(since:)``) is appended to the
/// device's journal before its answer goes out, so `kill -9` loses nothing answered; when the
/// change is durable the answer also waits for the journal to be synced (``DurabilityWaits``).
/// When its replay would cost too much (``CompactionPolicy``: journal lines, or scheduler steps a
/// restart would run again) the journal is compacted into a snapshot, and the device goes on as
/// rebuilt from that snapshot — as a restart will rebuild it — keeping its trace.
///
/// A device found on disk at start is restored in the background (``restore(_:)``): its lane is
/// held shut until then, so requests for it wait there while the daemon serves the others.
///
/// What the device traces goes to the connections subscribed to it (``feed``) after each piece
/// of work on the lane, once a request's change is journalled.
///
/// A session being recorded (``SessionRecording``) is kept here, and is told of every request
/// that changed the device, once journalled; meanwhile the journal is not compacted.
// unchecked: lane-confined state, checked by `lane.checkCurrent()` in debug builds.
final class DeviceSlot: @unchecked Sendable {
    let name: String
    let feed: TraceFeed
    /// Set once restored; replaced only on the lane (a compaction, a change that could not be
    /// saved rolled back); nil when it could not be restored.
    private var device: SimulatedDevice?
    private let lane: DeviceLanes.Lane
    private let lanes: DeviceLanes
    private let store: DeviceStateStore
    private let log: Logger
    /// Rebuilds the device and reopens its journal from the files (``DeviceReplay``).
    private let rebuild: @Sendable () throws -> (SimulatedDevice, DeviceJournal, DeviceStateStore.StoredDevice)
    /// When the device is snapshotted and its journal started afresh.
    private let policy: CompactionPolicy
    /// Makes and replays the device (its app from the daemon's catalog, its backends).
    private let replay: DeviceReplay
    /// Touched only on the lane: the journal (nil while the device is being replayed), its
    /// lines since its base, the scheduler steps a replay of them runs, its base's snapshot
    /// generation, the wall timer, whether a turn of catching up with the wall clock is queued,
    /// and whether the device was removed.
    private var journal: DeviceJournal?
    private var entriesSinceBase = 0
    private var replaySteps = 0
    private var generation = 0
    private var wallTimer: (any DispatchSourceTimer)?
    private var catchingUp = false
    private var closed = false
    /// The session being recorded (`record.start` … `record.stop`), touched only on the lane.
    private var recording: SessionRecording?
    /// The bytes all recordings together may hold (`maxRecordingBytes`).
    private let recordings: ByteBudget

    /// A device made now (`device.create`, or `default` at the first start).
    convenience init(
        device: SimulatedDevice, lanes: DeviceLanes, store: DeviceStateStore, policy: CompactionPolicy, replay: DeviceReplay,
        recordings: ByteBudget, log: Logger
    ) {
        self.init(name: device.name, lanes: lanes, store: store, policy: policy, replay: replay, recordings: recordings, log: log)
        self.device = device
        replaySteps = device.stepsRun
        feed.skip(to: device.mark.sequence)
    }

    /// A device to be restored from its files by ``restore(_:)``: until then its lane is held
    /// shut, and requests for it wait.
    convenience init(
        restoring name: String, lanes: DeviceLanes, store: DeviceStateStore, policy: CompactionPolicy, replay: DeviceReplay,
        recordings: ByteBudget, log: Logger
    ) {
        self.init(name: name, lanes: lanes, store: store, policy: policy, replay: replay, recordings: recordings, log: log)
        lane.suspend()
    }

    private init(
        name: String, lanes: DeviceLanes, store: DeviceStateStore, policy: CompactionPolicy, replay: DeviceReplay,
        recordings: ByteBudget, log: Logger
    ) {
        self.replay = replay
        self.recordings = recordings
        self.name = name
        self.lanes = lanes
        self.lane = lanes.hold(name)
        self.store = store
        self.policy = policy
        self.log = log
        feed = TraceFeed(device: name, published: 0, log: log)
        self.rebuild = {
            let stored = try store.load(name)
            return (try replay.rebuild(stored), try store.openJournal(name), stored)
        }
    }

    /// Restores a device made by ``init(restoring:lanes:store:policy:replay:recordings:log:)`` from `stored`, off
    /// its lane (no request runs on it yet), then opens the lane. The replay's cost is the
    /// scheduler steps it ran; over the policy's bound, the device is compacted at once, so the
    /// next start is quick; a replay that left the recorded path (another build wrote the
    /// journal) is compacted too, so the device it gave is the one every later start brings
    /// back. Throws, the lane still shut, when the device cannot be rebuilt: then
    /// ``start(_:journal:)`` or ``abandon()`` opens it.
    func restore(_ stored: DeviceStateStore.StoredDevice) throws {
        let (restored, diverged) = try replay.replay(stored)
        let opened = try store.openJournal(name)
        device = restored
        journal = opened
        entriesSinceBase = stored.entries.count
        generation = stored.generation
        replaySteps = restored.stepsRun
        feed.skip(to: restored.mark.sequence)
        if diverged {
            // What the journal recorded is no longer what replaying it gives (another build):
            // from now on the device is this one, whatever build replays it next.
            compact(opened)
        } else if policy.isDue(lines: entriesSinceBase, steps: replaySteps) {
            log.info("device \(name): its replay ran \(replaySteps) steps (\(entriesSinceBase) lines); compacting it")
            compact(opened)
        }
        lane.resume()
    }

    /// The device could not be read from its files: a new one takes its place, with a journal
    /// of its own (`default`, which the daemon always has), and the lane opens.
    func start(_ fresh: SimulatedDevice, journal freshJournal: DeviceJournal) {
        device = fresh
        journal = freshJournal
        entriesSinceBase = 0
        generation = 0
        replaySteps = fresh.stepsRun
        feed.skip(to: fresh.mark.sequence)
        lane.resume()
    }

    /// The device could not be read from its files: the lane opens on a closed slot (requests
    /// that waited get -32000).
    func abandon() {
        device = nil
        journal = nil
        closed = true
        lanes.release(lane)
        feed.end(.closed)
        lane.resume()
    }

    /// From now on, what changes the device is appended to the journal `open` gives, which
    /// already holds `entries` lines after its base, the snapshot of `generation` (0 for a
    /// creation). `open` runs on the device's lane, so no request runs on the device before it
    /// has a journal.
    func attach(_ open: () throws -> DeviceJournal) rethrows {
        try lane.run {
            journal = try open()
            entriesSinceBase = 0
            generation = 0
        }
    }

    /// Runs `body` on the device's lane. If it changed the device, appends the request
    /// (`method`, `params`) to the journal and, for a durable change, adds the line to `waits`.
    /// While the device is recorded, a request its recording has no room for is refused (-32009)
    /// before it runs (``SessionRecording/admit(method:params:on:)``).
    func perform<T>(
        method: String, params: JSONValue?, waits: DurabilityWaits?, _ body: (SimulatedDevice) throws(DeviceError) -> T
    ) throws -> T {
        try lane.run { () throws -> T in
            guard !closed, let device else { throw RPCError.noSuchDevice(name) }
            let session = recording
            var admitted = try session?.admit(method: method, params: params, on: device)
            defer { if let admitted { session?.release(admitted) } }
            let before = device.mark
            let stepsBefore = device.stepsRun
            // What the network answered since the last request (a wall clock's catching up) is
            // not this request's.
            _ = device.connection?.takeExchanges()
            let result: Result<T, DeviceError>
            do throws(DeviceError) {
                result = .success(try body(device))
            } catch {
                result = .failure(error)
            }
            let network = device.connection?.takeExchanges() ?? []
            let change = device.changes(since: before)
            if change != .none {
                replaySteps += device.stepsRun - stepsBefore
                try saveBackends(method)
                let entry = try record(
                    device, method: method, params: params, at: before, network: network, durable: change == .durable, waits)
                if let session, let entry {
                    let failure: DeviceError? = if case .failure(let error) = result { error } else { nil }
                    if let spoiled = session.add(admitted, method: method, entry: entry, failure: failure) {
                        log.warning("device \(name): its recording since seq \(session.started.seq) is spoiled, and record.stop will drop it: \(spoiled.error(device: name).message)")
                    }
                    admitted = nil
                }
                feed.publish(self.device ?? device)
            }
            return try result.mapError(RPCError.init).get()
        }
    }

    /// Runs `body` on the device's lane for a look that changes nothing (`device.list`).
    func look<T>(_ body: (SimulatedDevice) -> T) throws -> T {
        try lane.run { () throws -> T in
            guard !closed, let device else { throw RPCError.noSuchDevice(name) }
            return body(device)
        }
    }

    /// Saves the backends the request changed, before its journal line: what a device was told
    /// the backend stored must be on disk first. A backend that cannot be saved fails the
    /// request (the device's change is undone; the backend's stays in memory and is saved with
    /// the next change that can be).
    private func saveBackends(_ method: String) throws {
        lane.checkCurrent()
        do {
            try store.servers.saveChanged()
        } catch {
            log.error("device \(name): a backend could not be saved after \(method): \(error); undoing the request")
            if let journal { rollBack(journal) }
            throw RPCError.storageFailed("device \(name) could not save its backend after \(method), which was undone", reason: "\(error)")
        }
    }

    /// Journals a request; returns its line, nil when the device has no journal yet.
    private func record(
        _ device: SimulatedDevice, method: String, params: JSONValue?, at before: DeviceMark,
        network: [DeviceConnection.Exchange], durable: Bool, _ waits: DurabilityWaits?
    ) throws -> JournalEntry? {
        lane.checkCurrent()
        guard let journal else { return nil }
        var members = params?.objectValue ?? [:]
        members["device"] = .string(name)
        let entry = JournalEntry(
            at: before.milliseconds, method: method, params: .object(members), after: .init(device.mark),
            network: network.isEmpty ? nil : network)
        let end: Int64
        do {
            end = try journal.append(try JSONWire.bytes(entry.json))
        } catch {
            log.error("device \(name): could not journal \(method): \(error); undoing it")
            rollBack(journal)
            throw RPCError.storageFailed("device \(name) could not save \(method), which was undone", reason: "\(error)")
        }
        if durable { waits?.add(journal, upTo: end) }
        entriesSinceBase += 1
        // Not while recorded: the device rebuilt from a snapshot (its main app launched again)
        // is one no scenario makes. It is compacted once the recording stops.
        if recording == nil, policy.isDue(lines: entriesSinceBase, steps: replaySteps) { compact(journal) }
        return entry
    }

    /// `record.start`: starts recording the device's session from its history (its journal,
    /// rehearsed; ``SessionRecording``), refused (-32009) when it is being recorded already or
    /// its history cannot be written as a scenario.
    func startRecording() throws -> RecordingStarted {
        try lane.run { () throws -> RecordingStarted in
            guard !closed, let device else { throw RPCError.noSuchDevice(name) }
            if let recording { throw RecordingRefusal.recording(since: recording.started).error(device: name) }
            let started = try SessionRecording(
                device, history: store.history(of: name), catalog: replay.catalog, budget: recordings, log: log)
            recording = started
            log.info("device \(name): recording from seq \(started.started.seq) (\(started.started.time)), after \(started.historyCount) requests of history")
            return RecordingStarted(device: name, started: started.started, history: started.historyCount)
        }
    }

    /// `record.stop`: ends the recording and hands it over as a scenario named `scenarioName`
    /// (``RecordingDelivery``): in the answer, or written to `path`. Refused (-32009) when none
    /// runs, or when it was spoiled (it is dropped all the same); refused, the recording going
    /// on, when its answer would be too large for the answers to clients (`answers`, the request
    /// `id`) or `path` cannot be written, or when nobody would get it (a notification without
    /// `path`). A compaction held back meanwhile is done once it ends.
    func stopRecording(scenarioName: String?, path: String?, id: RPCID?, answers: ByteBudget) throws -> JSONText {
        try lane.run { () throws -> JSONText in
            guard !closed, let device else { throw RPCError.noSuchDevice(name) }
            guard let session = recording else { throw RecordingRefusal.notRecording.error(device: name) }
            // A notification is answered nowhere: without `path`, it would drop the recording.
            guard path != nil || id != nil else {
                throw RPCError.invalidRequest("record.stop as a notification hands the scenario to nobody; the recording goes on")
            }
            var ended = false
            defer {
                if ended {
                    recording = nil
                    if let journal, policy.isDue(lines: entriesSinceBase, steps: replaySteps) { compact(journal) }
                }
            }
            let scenario: RecordedScenario
            do {
                scenario = try session.scenario(name: scenarioName)
            } catch {
                ended = true
                throw error
            }
            var summary = RecordingStopped(device: name, started: session.started, stopped: RecordingPoint(device), counts: session.counts)
            let answer: JSONText
            if let path {
                summary.bytes = try RecordingDelivery.write(scenario, to: path, outside: store.directory.deletingLastPathComponent())
                summary.path = path
                answer = try JSONText(encoded: JSONWire.bytes(summary))
            } else {
                answer = try RecordingDelivery.answer(scenario, summary, id: id, answers: answers)
            }
            ended = true
            log.info(
                "device \(name): recording stopped at seq \(summary.stopped.seq) (\(summary.stopped.time)), \(summary.counts.recorded) steps recorded"
                    + (path.map { ", written to \($0) (\(summary.bytes ?? 0) bytes)" } ?? ""))
            return answer
        }
    }

    /// Puts the device back as its files have it (the change that could not be saved undone),
    /// with its journal reopened. When even that fails, the device is closed until the daemon
    /// restarts: later requests get -32000, and its files are kept.
    private func rollBack(_ failed: DeviceJournal) {
        lane.checkCurrent()
        failed.finish()
        do {
            let (rebuilt, reopened, stored) = try rebuild()
            device = rebuilt
            journal = reopened
            entriesSinceBase = stored.entries.count
            generation = stored.generation
            replaySteps = rebuilt.stepsRun
        } catch {
            log.error("device \(name): could not be rebuilt from its files (\(error)); closed until the daemon restarts")
            journal = nil
            closed = true
            feed.end(.closed)
        }
    }

    /// Writes a snapshot and starts a journal that continues from it; from then on the device
    /// is the one rebuilt from the snapshot as read back, exactly what a restart rebuilds (its
    /// main app launched again, what lived only in memory started afresh: docs/decisions.md); the
    /// snapshot holds the trace, so nothing a client can still ask for is lost.
    /// On failure the old journal and device stay in use (the journal is still whole) and
    /// compaction is tried again later.
    private func compact(_ old: DeviceJournal) {
        // A snapshot keeps no task: one held at a breakpoint would be lost. Until they go on,
        // the journal waits.
        guard let device, !device.standsAtBreakpoint else { return }
        do {
            let snapshot = try device.snapshot()
            let bytes = try JSONWire.bytes(snapshot)
            let restored = try SimulatedDevice(
                restoring: DeviceStateStore.decodeSnapshot(Data(bytes)), catalog: replay.catalog, servers: replay.servers)
            let fresh = try store.compact(bytes, of: name, sequence: snapshot.traceSequence ?? 0, generation: generation + 1)
            old.finish()
            self.device = restored
            journal = fresh
            generation += 1
            entriesSinceBase = 0
            replaySteps = restored.stepsRun
            log.info("device \(name): journal compacted into snapshot \(generation)")
        } catch {
            (entriesSinceBase, replaySteps) = policy.retryLater(lines: entriesSinceBase, steps: replaySteps)
            log.error("device \(name): could not compact its journal: \(error)")
        }
    }

    /// Wall mode: catch up with the real time now, then every second. Time passing is not
    /// journalled: a replay catches up to the time of each request, and then to now.
    func startWallClock() {
        lane.run {
            guard device?.clockMode == .wall, wallTimer == nil, !closed else { return }
            tickWallClock()
            let timer = lane.makeTimer()
            timer.schedule(deadline: .now() + 1, repeating: 1)
            timer.setEventHandler { [weak self] in self?.tickWallClock() }
            timer.resume()
            wallTimer = timer
        }
    }

    /// Virtual time a wall device moves in one step of catching up, and the real time one turn
    /// of catching up may take before requests waiting on the device get their turn.
    private static let wallStepMilliseconds: Int64 = 86_400_000
    private static let wallTurn = DispatchTimeInterval.milliseconds(50)

    /// Moves a wall device towards the real time, a day of virtual time per step, for one turn
    /// at most; a device far behind (its daemon was stopped for a week, say) queues another
    /// turn behind the requests waiting, which meanwhile see its time as it stands.
    private func tickWallClock() {
        lane.checkCurrent()
        guard !closed, let device else { return }
        let turnEnds = DispatchTime.now() + Self.wallTurn
        do {
            var there = false
            repeat {
                let stepsBefore = device.stepsRun
                there = try device.advanceWall(to: Date(), atMostMilliseconds: Self.wallStepMilliseconds)
                replaySteps += device.stepsRun - stepsBefore
                feed.publish(device)
            } while !there && DispatchTime.now() < turnEnds
            if !there, !catchingUp {
                catchingUp = true
                lane.later { [weak self] in
                    self?.catchingUp = false
                    self?.tickWallClock()
                }
            }
        } catch {
            log.error("device \(name): wall clock advance failed: \(error)")
        }
    }

    /// Stops the device for good (removed, or the daemon stopping): waits for the request
    /// running on it, stops the wall clock, syncs and ends the journal and, when `deletingFiles`,
    /// deletes them — all before any other caller of `close` returns; only the first call does
    /// this, later ones find it done. Later requests get -32000, and the subscriptions to it end
    /// (`removed` when its files go, else `closed`). Returns false when the journal could not be
    /// synced.
    @discardableResult
    func close(deletingFiles: Bool = false) -> Bool {
        lane.run {
            guard !closed else { return true }
            closed = true
            lanes.release(lane)
            feed.end(deletingFiles ? .removed : .closed)
            wallTimer?.cancel()
            wallTimer = nil
            let synced = journal?.finish() ?? true
            journal = nil
            if deletingFiles { store.remove(name) }
            if let session = recording {
                log.warning("device \(name): its recording since seq \(session.started.seq) ends unwritten (the device was \(deletingFiles ? "removed" : "closed"))")
                recording = nil
            }
            return synced
        }
    }
}
