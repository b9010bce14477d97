import ControlProtocol

/// Why a recording cannot start or stop as asked: -32009, `data.reason` its name
/// (docs/protocol.md, Errors).
enum RecordingRefusal: Sendable {
    /// `record.start` on a device being recorded.
    case recording(since: RecordingPoint)
    /// `record.stop` on a device not being recorded: none was started, or the daemon stopped
    /// since (a recording lives in memory).
    case notRecording
    /// A wall-clock device: its time passes between requests, where no step follows it.
    case wallClock
    /// The device's first requests were compacted into a snapshot: no scenario can rebuild it.
    case compacted
    /// A request that changed the device, which no scenario step gives again (`store.set` …),
    /// before `record.start` or while recorded.
    case unrecordable(method: String, t: Double, whileRecorded: Bool)
    /// An event, intent or clock advance that changed the device and failed in a way no step
    /// expects (an internal failure: a bug), before `record.start` or while recorded.
    case failedUnexpectedly(method: String, t: Double, error: String, whileRecorded: Bool)
    /// The device's history, rehearsed on a fresh device, gives another device than this one
    /// (another build wrote its journal, or it was edited).
    case diverged(method: String, t: Double)
    /// The scenario would not run: more steps or virtual time than a scenario may have.
    case tooLong(String)

    var reason: String {
        switch self {
        case .recording: "recording"
        case .notRecording: "notRecording"
        case .wallClock: "wallClock"
        case .compacted: "compacted"
        case .unrecordable, .failedUnexpectedly: "unrecordable"
        case .diverged: "diverged"
        case .tooLong: "tooLong"
        }
    }

    /// The protocol error for device `device`.
    func error(device: String) -> RPCError {
        switch self {
        case .recording(let since):
            error(device, "device \(device) is being recorded already (since t=\(Self.seconds(since.t)), trace seq \(since.seq)); record.stop it first")
        case .notRecording:
            error(
                device,
                "device \(device) is not being recorded; record.start it first (a recording ends with the daemon: one started before clarityd last started is lost)")
        case .wallClock:
            error(
                device,
                "device \(device) runs on the wall clock, whose time passes between requests where no scenario step follows it; record a device with a virtual clock")
        case .compacted:
            error(
                device,
                "device \(device)'s journal starts at a snapshot (compacted: compactJournalAfter, maxReplaySteps, or a restart by another build), so its first requests are gone and no scenario can rebuild it; record a device created since")
        case .unrecordable(let method, let t, let whileRecorded):
            error(
                device,
                whileRecorded
                    ? "device \(device) received \(method) at t=\(Self.seconds(t)) while recorded, which no scenario step gives again (scenarios have event, intent and advance steps); the recording is dropped: record.start again and leave \(method) out"
                    : "device \(device) received \(method) at t=\(Self.seconds(t)), which no scenario step gives again (scenarios have event, intent and advance steps); record a device that received only events, intents and clock advances",
                method: method, t: t)
        case .failedUnexpectedly(let method, let t, let failure, let whileRecorded):
            error(
                device,
                "device \(device)'s \(method) at t=\(Self.seconds(t)) failed in a way no scenario step expects (\(failure)); "
                    + (whileRecorded ? "the recording is dropped: record.start again" : "record a device that did not meet it"),
                method: method, t: t)
        case .diverged(let method, let t):
            error(
                device,
                "device \(device)'s history, replayed on a fresh device, leaves it at \(method) at t=\(Self.seconds(t)): its journal was written by another build of clarityd, or edited; record a device this build made",
                method: method, t: t)
        case .tooLong(let why):
            error(device, "the recording would not run as a scenario: \(why); record a shorter session, on a newer device")
        }
    }

    /// Seconds as the wire writes them: `600`, `1.5`.
    private static func seconds(_ t: Double) -> String {
        t == t.rounded() && abs(t) < 1e15 ? "\(Int64(t))" : "\(t)"
    }

    private func error(_ device: String, _ message: String, method: String? = nil, t: Double? = nil) -> RPCError {
        RPCError.recording(device: device, reason: reason, message: message, method: method, t: t)
    }
}
