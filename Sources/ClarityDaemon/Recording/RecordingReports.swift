import DeviceActors
@_spi(Host) import SimulatediOS

/// Where a recording started or stopped: the device's last trace sequence number then, and its
/// virtual time. The recorded trace is the events after `started.seq`, up to `stopped.seq`.
struct RecordingPoint: Encodable, Sendable {
    let seq: Int
    let t: Double
    let time: String

    init(_ device: SimulatedDevice) {
        seq = device.mark.sequence
        (t, time) = device.now
    }
}

/// `record.start`'s answer.
struct RecordingStarted: Encodable, Sendable {
    let device: String
    let started: RecordingPoint
    /// The steps that rebuild the device as it was: the requests it received before.
    let history: Int
}

/// `record.stop`'s answer: the scenario, and what it holds.
struct RecordingStopped: Encodable, Sendable {
    /// How many steps of each kind the scenario holds.
    struct Counts: Encodable, Sendable {
        /// Steps that rebuild the device as it was at `record.start`.
        let history: Int
        /// Steps recorded between `record.start` and `record.stop`.
        let recorded: Int
        /// Of the recorded steps: events, intents, advances, and those that failed (`fails`).
        let events: Int
        let intents: Int
        let advances: Int
        let failed: Int
    }

    let device: String
    let started: RecordingPoint
    let stopped: RecordingPoint
    let counts: Counts
    let scenario: RecordedScenario
}

/// A recorded session as a scenario (docs/scenarios.md): the device as it was created — its
/// app, start, time zone, seed and whole config, so that neither clarityd.json nor a later
/// build's defaults change it — then its steps.
struct RecordedScenario: Encodable, Sendable {
    let name: String
    /// The app; nil when several are installed (then `apps`).
    let app: String?
    let apps: [String]?
    let start: String
    let timezone: String
    let seed: UInt64
    let config: DeviceConfig
    let steps: [RecordedStep]
}
