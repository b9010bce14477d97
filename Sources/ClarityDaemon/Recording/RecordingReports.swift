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

/// How many steps of each kind a recorded scenario holds (`record.stop`'s `counts`).
struct RecordingCounts: Encodable, Sendable {
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

/// `record.stop`'s answer but its scenario: whose recording, where it started and stopped,
/// what it holds — and, when clarityd wrote the scenario to a file (`path`), where and how large.
struct RecordingStopped: Encodable, Sendable {
    let device: String
    let started: RecordingPoint
    let stopped: RecordingPoint
    let counts: RecordingCounts
    var path: String?
    var bytes: Int?
}
