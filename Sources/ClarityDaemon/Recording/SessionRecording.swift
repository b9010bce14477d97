import ControlProtocol
import DeviceActors
import ScenarioFiles
@_spi(Host) import SimulatediOS

/// A device's session being recorded, from `record.start` to `record.stop` (docs/scenarios.md,
/// Recording a session), written then as one scenario whose run gives the device's trace again,
/// event for event.
///
/// The scenario starts on a fresh device, so it starts with the device's history: every request
/// it received since it was created, as its journal holds them. At `record.start` that history
/// is rehearsed on a fresh device, through the routes a restart replays journals through, to
/// learn how each request ended (a request that failed yet changed the device is a `fails`
/// step) and to check that it rebuilds the device exactly as it is. From then on every request
/// that changes the device is added as it is answered. Only events, intents and clock advances
/// can be steps: any other change (`store.set`, `device.config` …) refuses the start, or drops
/// the recording. Held in memory by the device's slot, so it ends with the daemon.
struct SessionRecording: Sendable {
    let creation: DeviceCreation
    /// The apps the daemon runs: the recorded scenario must be one it can run.
    let catalog: AppCatalog
    let started: RecordingPoint
    /// The steps that rebuild the device as it was at `record.start`.
    let history: [RecordedStep]
    private(set) var recorded: [RecordedStep] = []
    /// Why the session can no longer be written: the first request since `record.start` that no
    /// step gives again.
    private(set) var spoiled: RecordingRefusal?

    /// Starts recording `device`, whose journal holds `history` (nil when it starts at a
    /// snapshot); `replay` rehearses it.
    init(
        _ device: SimulatedDevice, history: (creation: DeviceCreation, requests: DeviceStateStore.JournalLines)?,
        replay: DeviceReplay
    ) throws(RPCError) {
        guard device.clockMode == .virtual else { throw RecordingRefusal.wallClock.error(device: device.name) }
        guard let history else { throw RecordingRefusal.compacted.error(device: device.name) }
        let requests = Array(history.requests)
        var inputs: [RecordedStep] = []
        for request in requests {
            guard let step = try RecordedStep(method: request.method, params: request.params, failure: nil) else {
                throw RecordingRefusal.unrecordable(method: request.method, t: Self.seconds(request.at), whileRecorded: false)
                    .error(device: device.name)
            }
            inputs.append(step)
        }
        guard inputs.count < Scenario.maxSteps, device.now.t <= Scenario.maxVirtualSeconds else {
            throw RecordingRefusal.tooLong(
                "its history alone is \(inputs.count) steps and \(Int(device.now.t)) s of virtual time; a scenario has at most \(Scenario.maxSteps) steps and \(Int(Scenario.maxVirtualSeconds)) s"
            ).error(device: device.name)
        }
        let rehearsal: SimulatedDevice
        do {
            rehearsal = try replay.make(history.creation, replaying: true)
        } catch {
            throw RPCError(error)
        }
        var failures = [InputFailure?](repeating: nil, count: inputs.count)
        var unexpected: (index: Int, error: any Error)?
        let divergence = replay.run(requests, of: device.name, on: rehearsal) { index, error in
            guard let error else { return }
            if let error = error as? DeviceError, let failure = InputFailure(error) {
                failures[index] = failure
            } else {
                unexpected = unexpected ?? (index, error)
            }
        }
        if let (index, error) = unexpected {
            throw RecordingRefusal.failedUnexpectedly(
                method: requests[index].method, t: Self.seconds(requests[index].at), error: "\(error)", whileRecorded: false
            ).error(device: device.name)
        }
        let departure = divergence?.index
        if departure != nil || rehearsal.mark != device.mark {
            let request = departure.map { requests[$0] } ?? requests.last
            throw RecordingRefusal.diverged(method: request?.method ?? "device.create", t: Self.seconds(request?.at ?? 0))
                .error(device: device.name)
        }
        creation = history.creation
        catalog = replay.catalog
        started = RecordingPoint(device)
        self.history = zip(inputs, failures).map { RecordedStep(input: $0.input, failure: $1) }
    }

    /// A request that changed the device, as it was answered (`failure`: the error it failed
    /// with), at `milliseconds` of virtual time.
    mutating func add(method: String, params: JSONValue?, failure: DeviceError?, at milliseconds: Int64) {
        guard spoiled == nil else { return }
        let t = Self.seconds(milliseconds)
        let expected = failure.flatMap(InputFailure.init)
        if let failure, expected == nil {
            spoiled = .failedUnexpectedly(method: method, t: t, error: "\(failure)", whileRecorded: true)
        } else if let step = try? RecordedStep(method: method, params: params, failure: expected) {
            recorded.append(step)
        } else {
            spoiled = .unrecordable(method: method, t: t, whileRecorded: true)
        }
    }

    /// The session as a scenario, `device` as it stands now being where it stops; refused when
    /// it was spoiled, or would not run (too many steps, too much virtual time).
    func stop(_ device: SimulatedDevice, name: String?) throws(RPCError) -> RecordingStopped {
        if let spoiled { throw spoiled.error(device: device.name) }
        let scenario = RecordedScenario(
            name: name ?? "recorded on \(creation.name)", app: creation.apps == nil ? creation.app : nil, apps: creation.apps,
            start: creation.start, timezone: creation.timezone,
            seed: creation.seed, config: creation.config, steps: history + recorded)
        do {
            _ = try ScenarioFile.requested(try JSONWire.value(scenario), catalog: catalog)
        } catch let error as RPCError {
            throw RecordingRefusal.tooLong(error.message).error(device: device.name)
        } catch {
            throw RPCError.internalError("the recorded scenario could not be encoded: \(error)")
        }
        let counts = RecordingStopped.Counts(
            history: history.count, recorded: recorded.count,
            events: recorded.count(where: { if case .event = $0.input { true } else { false } }),
            intents: recorded.count(where: { if case .intent = $0.input { true } else { false } }),
            advances: recorded.count(where: { if case .advance = $0.input { true } else { false } }),
            failed: recorded.count(where: { $0.failure != nil }))
        return RecordingStopped(
            device: device.name, started: started, stopped: RecordingPoint(device), counts: counts, scenario: scenario)
    }

    /// A journal's milliseconds of virtual time as the wire's seconds.
    private static func seconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 }
}
