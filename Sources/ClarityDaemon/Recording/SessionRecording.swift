import ControlProtocol
import DeviceActors
import Foundation
import ScenarioFiles
@_spi(Host) import SimulatediOS

/// A device's session being recorded, from `record.start` to `record.stop` (docs/scenarios.md,
/// Recording a session), written then as one scenario whose run gives the device's trace again,
/// event for event.
///
/// The scenario starts on a fresh device, so it starts with the device's history: every request
/// it received since it was created, as its journal holds them. At `record.start` that history
/// is rehearsed on a fresh device with servers of its own, as a scenario runs
/// (``ScenarioRehearsal``), to learn how each request ended (a request that failed yet changed
/// the device is a `fails` step) and to check that it rebuilds the device exactly as it is.
/// From then on every request that changes the device is added as it is answered. Only events,
/// intents and clock advances can be steps: any other change (`store.set`, `device.config` …)
/// refuses the start, or spoils the recording.
///
/// What it holds is bounded before it is taken (``admit(method:params:on:)``): the steps a
/// scenario may have, its ten years of virtual time, and the bytes all recordings together may
/// hold (`maxRecordingBytes`, a ``ByteBudget``); a request there is no room for is refused
/// before it runs, so the recording always holds the device's whole session and `record.stop`
/// can always deliver it. Held in memory by the device's slot, touched only on its lane; it
/// ends with the daemon.
// unchecked: lane-confined: held by a DeviceSlot, touched only inside its lane's work
final class SessionRecording: @unchecked Sendable {
    let creation: DeviceCreation
    let started: RecordingPoint
    /// How many of the steps rebuild the device as it was at `record.start`.
    let historyCount: Int
    /// The history's steps, then those recorded.
    private var steps: [RecordedStep] = []
    /// Why the session can no longer be written: the first request since `record.start` that no
    /// step gives again, or that a scenario's backend would answer otherwise. A spoiled
    /// recording holds no steps.
    private(set) var spoiled: RecordingRefusal?
    /// The bytes all recordings may hold, and this one's share of them: its steps' inputs.
    private let budget: ByteBudget
    private var charged = 0
    /// The most steps its scenario may hold.
    private let maxSteps: Int
    /// The device as the scenario rebuilds it, kept while the device asks a backend.
    private var rehearsal: ScenarioRehearsal?

    /// Starts recording `device`, whose journal holds `history` (nil when it starts at a
    /// snapshot), within `budget`.
    init(
        _ device: SimulatedDevice, history: (creation: DeviceCreation, requests: DeviceStateStore.JournalLines)?,
        catalog: AppCatalog, budget: ByteBudget, log: Logger
    ) throws(RPCError) {
        guard device.clockMode == .virtual else { throw RecordingRefusal.wallClock.error(device: device.name) }
        guard let history else { throw RecordingRefusal.compacted.error(device: device.name) }
        self.budget = budget
        creation = history.creation
        historyCount = history.requests.count
        started = RecordingPoint(device)
        maxSteps = try Self.maxSteps(for: RecordedScenario(history.creation, name: "", steps: []), catalog: catalog, device: device.name)
        // Whole from here: a refusal below gives the bytes taken back (`deinit`).
        guard historyCount < maxSteps, device.now.t <= Scenario.maxVirtualSeconds else {
            throw RecordingRefusal.tooLong(
                "its history alone is \(historyCount) steps and \(Int(device.now.t)) s of virtual time; a scenario has at most \(maxSteps) steps and \(Int(Scenario.maxVirtualSeconds)) s"
            ).error(device: device.name)
        }
        steps.reserveCapacity(historyCount)
        for request in history.requests {
            guard let step = try RecordedStep(method: request.method, params: request.params) else {
                throw RecordingRefusal.unrecordable(method: request.method, t: Self.seconds(request.at), whileRecorded: false)
                    .error(device: device.name)
            }
            guard budget.take(step.input.count) else {
                throw RecordingRefusal.historyTooLarge(bytes: charged + step.input.count, limit: budget.limit).error(device: device.name)
            }
            charged += step.input.count
            steps.append(step)
        }
        let rehearsal = try ScenarioRehearsal(history.creation, catalog: catalog, log: log)
        try rehearse(history.requests, on: rehearsal, reaching: device)
        self.rehearsal = rehearsal.asksABackend ? rehearsal : nil
    }

    deinit {
        budget.give(charged)
    }

    /// The steps recorded since `record.start` (none once spoiled).
    var recordedCount: Int { max(0, steps.count - historyCount) }

    /// The step `method` (`params`) will be if it changes the device, refused (-32009
    /// `tooLong`, `tooLarge`) before it runs when the recording has no room for it: its steps,
    /// the virtual time a scenario may cover, the bytes recordings may hold. Its bytes are
    /// taken until ``add(_:method:entry:failure:)`` or ``release(_:)``. Nil for a method no
    /// step gives, or when the recording is spoiled.
    func admit(method: String, params: JSONValue?, on device: SimulatedDevice) throws(RPCError) -> RecordedStep? {
        guard spoiled == nil, let step = try RecordedStep(method: method, params: params) else { return nil }
        let room: RecordingRefusal.Room? =
            if steps.count >= maxSteps {
                .steps(steps.count)
            } else if device.now.t + step.seconds > Scenario.maxVirtualSeconds {
                .virtualTime(seconds: device.now.t + step.seconds)
            } else if !budget.take(step.input.count) {
                .bytes(held: budget.total, adding: step.input.count, limit: budget.limit)
            } else {
                nil
            }
        if let room { throw RecordingRefusal.noRoom(method: method, room).error(device: device.name) }
        charged += step.input.count
        return step
    }

    /// Gives back the bytes of a step admitted for a request that did not change the device.
    func release(_ admitted: RecordedStep) {
        budget.give(admitted.input.count)
        charged -= admitted.input.count
    }

    /// A request that changed the device (journalled as `entry`), as it was answered (`failure`:
    /// the error it failed with); `admitted` is its step (nil: no step gives it). Returns the
    /// refusal when this request spoiled the recording.
    func add(_ admitted: RecordedStep?, method: String, entry: JournalEntry, failure: DeviceError?) -> RecordingRefusal? {
        guard spoiled == nil else { return nil }
        let t = Self.seconds(entry.at)
        let expected = failure.flatMap(InputFailure.init)
        let spoiling: RecordingRefusal?
        if let failure, expected == nil {
            spoiling = .failedUnexpectedly(method: method, t: t, error: "\(failure)", whileRecorded: true)
        } else if let admitted {
            steps.append(admitted.failing(expected))
            spoiling =
                switch rehearsal?.run([entry]) {
                case .answers?: .sharedBackend(method: method, t: t, whileRecorded: true)
                case .path?:
                    .failedUnexpectedly(
                        method: method, t: t, error: "the device as its scenario rebuilds it ended elsewhere (a bug)", whileRecorded: true)
                case nil: nil
                }
        } else {
            spoiling = .unrecordable(method: method, t: t, whileRecorded: true)
        }
        if let spoiling { spoil(spoiling) }
        return spoiling
    }

    /// The session as a scenario named `name`; refused, and to be dropped, when it was spoiled.
    func scenario(name: String?) throws(RPCError) -> RecordedScenario {
        if let spoiled { throw spoiled.error(device: creation.name) }
        return RecordedScenario(creation, name: name ?? "recorded on \(creation.name)", steps: steps)
    }

    /// What the scenario holds, for `record.stop`'s answer.
    var counts: RecordingCounts {
        let recorded = steps.dropFirst(historyCount)
        return RecordingCounts(
            history: historyCount, recorded: recorded.count, events: recorded.count(where: { $0.kind == .event }),
            intents: recorded.count(where: { $0.kind == .intent }), advances: recorded.count(where: { $0.kind == .advance }),
            failed: recorded.count(where: { $0.failure != nil }))
    }

    /// Rehearses the history (`requests`, whose steps are taken) to learn how each request
    /// ended, and checks that it gives `device` as it stands: refused where it does not, at the
    /// first request that parted — `sharedBackend` where the backend answered otherwise,
    /// `unrecordable` where it failed as no step expects, `diverged` where the device stood
    /// elsewhere.
    private func rehearse(
        _ requests: DeviceStateStore.JournalLines, on rehearsal: ScenarioRehearsal, reaching device: SimulatedDevice
    ) throws(RPCError) {
        if rehearsal.launchParted {
            throw RecordingRefusal.sharedBackend(method: "device.create", t: 0, whileRecorded: false).error(device: device.name)
        }
        var ran: [(method: String, t: Double)] = []
        var unexpected: (index: Int, error: any Error)?
        let parting = rehearsal.run(requests) { replayed in
            ran.append((replayed.entry.method, Self.seconds(replayed.entry.at)))
            guard let error = replayed.error else { return }
            if let error = error as? DeviceError, let failure = InputFailure(error) {
                steps[replayed.index] = steps[replayed.index].failing(failure)
            } else {
                unexpected = unexpected ?? (replayed.index, error)
            }
        }
        func request(_ index: Int) -> (method: String, t: Double) {
            ran.indices.contains(index) ? ran[index] : ("device.create", 0)
        }
        if case .answers(let index?)? = parting, index <= unexpected?.index ?? .max {
            let (method, t) = request(index)
            throw RecordingRefusal.sharedBackend(method: method, t: t, whileRecorded: false).error(device: device.name)
        }
        if let (index, error) = unexpected {
            let (method, t) = request(index)
            throw RecordingRefusal.failedUnexpectedly(method: method, t: t, error: "\(error)", whileRecorded: false).error(device: device.name)
        }
        let departed: Int? =
            switch parting {
            case .path(let index)?: index
            case .answers?, nil: rehearsal.device.mark == device.mark ? nil : historyCount - 1
            }
        if let departed {
            let (method, t) = request(departed)
            throw RecordingRefusal.diverged(method: method, t: t).error(device: device.name)
        }
    }

    /// Ends the recording as spoiled: it holds nothing from now on.
    private func spoil(_ refusal: RecordingRefusal) {
        spoiled = refusal
        steps = []
        budget.give(charged)
        charged = 0
        rehearsal = nil
    }

    /// The most steps a scenario with `header`'s device may hold: ``Scenario/maxSteps``, fewer
    /// when its apps' built-in invariants would make a run of that many check more than
    /// ``Scenario/maxChecks``. Validates the header as `scenario.run` will.
    private static func maxSteps(for header: RecordedScenario, catalog: AppCatalog, device: String) throws(RPCError) -> Int {
        var bytes: [UInt8] = []
        var scenario: Scenario
        do {
            try header.write(to: &bytes)
            scenario = try ScenarioFile.requested(try JSONValue(parsing: Data(bytes)), catalog: catalog)
        } catch let error as RPCError {
            throw RecordingRefusal.tooLong(error.message).error(device: device)
        } catch {
            throw RPCError.internalError("the recorded scenario could not be encoded: \(error)")
        }
        func fits(_ count: Int) -> Bool {
            scenario.steps = Array(repeating: .advance(seconds: 1), count: count)
            return (try? scenario.validate()) != nil
        }
        guard !fits(Scenario.maxSteps) else { return Scenario.maxSteps }
        var (fitting, over) = (0, Scenario.maxSteps)
        while over - fitting > 1 {
            let middle = (fitting + over) / 2
            if fits(middle) { fitting = middle } else { over = middle }
        }
        return fitting
    }

    /// A journal's milliseconds of virtual time as the wire's seconds.
    private static func seconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 }
}
