import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// How a host runs a device it makes, beside what the device is (``DeviceDescription``): its
/// launch, where its trace's numbering goes on, and how its world picks among ready jobs.
public struct DeviceRunOptions: Sendable {
    /// What happens to the apps once the device is made.
    public enum Launch: Sendable {
        /// Each main app launches (cleanup, timers), as iOS does at app start; the network is asked.
        case run
        /// As ``run``, the launch given the answers the first one got (a restart's replay,
        /// ``DeviceConnection``), the backend not asked.
        case replaying([DeviceConnection.Exchange])
        /// Nothing launches: a snapshot's restore sets the device up first, a scenario's
        /// validation only prepares intents on it.
        case skipped
    }

    public var launch: Launch
    /// The sequence number the trace continues after (a device restored from a snapshot goes
    /// on numbering where it stopped).
    public var traceSequence: Int
    /// How the world picks among ready jobs: FIFO for a device, an exploring strategy for a
    /// scenario's schedule.
    public var strategy: any SchedulingStrategy
    /// Whether the world keeps every pick (a scenario's schedule, to replay it).
    public var recordsSchedule: Bool
    /// Whether every App Group read is traced with the value it returned, the main app's too (a
    /// scenario's schedule, whose story and reads-from relation need them); otherwise extension
    /// reads only, without their value (``AppGroupContainer``). Tracing is no scheduling point:
    /// the decisions are the same either way.
    public var tracesEveryRead: Bool

    public init(
        launch: Launch = .run, traceSequence: Int = 0, strategy: any SchedulingStrategy = FIFOStrategy(),
        recordsSchedule: Bool = false, tracesEveryRead: Bool = false
    ) {
        self.launch = launch
        self.traceSequence = traceSequence
        self.strategy = strategy
        self.recordsSchedule = recordsSchedule
        self.tracesEveryRead = tracesEveryRead
    }
}
