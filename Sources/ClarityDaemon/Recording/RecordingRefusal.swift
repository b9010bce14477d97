import ControlProtocol
import DeviceActors

/// Why a recording cannot start or stop as asked, or has no room for a request: -32009,
/// `data.reason` its name (docs/protocol.md, Errors).
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
    /// The device's backend answered a request (`device.create`: its launch) otherwise than a
    /// scenario's private backend does (``ScenarioRehearsal``): before `record.start` or while
    /// recorded.
    case sharedBackend(method: String, t: Double, whileRecorded: Bool)
    /// The scenario would not run: more steps or virtual time than a scenario may have.
    case tooLong(String)
    /// The history alone takes more bytes as steps than recordings may hold.
    case historyTooLarge(bytes: Int, limit: Int)
    /// A request the recording has no room for: refused before it ran, the recording kept.
    case noRoom(method: String, Room)
    /// `record.stop` without `path`: the answer would take more bytes than it may (`unread`: the
    /// answers clients have not read yet, which it would take past their cap); the recording goes on.
    case answerTooLarge(bytes: Int, limit: Int, unread: Int?)

    /// What a recording ran out of (``noRoom(method:_:)``).
    enum Room: Sendable {
        /// Steps: it holds `steps`, as many as its scenario may.
        case steps(Int)
        /// Virtual time: the request would take the device to `seconds`, past a scenario's ten years.
        case virtualTime(seconds: Double)
        /// Bytes: the recordings hold `held`, the request's step takes `adding`, all together may take `limit`.
        case bytes(held: Int, adding: Int, limit: Int)
    }

    var reason: String {
        switch self {
        case .recording: "recording"
        case .notRecording: "notRecording"
        case .wallClock: "wallClock"
        case .compacted: "compacted"
        case .unrecordable, .failedUnexpectedly: "unrecordable"
        case .diverged: "diverged"
        case .sharedBackend: "sharedBackend"
        case .tooLong, .noRoom(_, .steps), .noRoom(_, .virtualTime): "tooLong"
        case .historyTooLarge, .noRoom(_, .bytes), .answerTooLarge: "tooLarge"
        }
    }

    /// The protocol error for device `device`.
    func error(device: String) -> RPCError {
        switch self {
        case .recording(let since):
            return error(device, "device \(device) is being recorded already (since t=\(Self.seconds(since.t)), trace seq \(since.seq)); record.stop it first")
        case .notRecording:
            return error(
                device,
                "device \(device) is not being recorded; record.start it first (a recording ends with the daemon: one started before clarityd last started is lost)")
        case .wallClock:
            return error(
                device,
                "device \(device) runs on the wall clock, whose time passes between requests where no scenario step follows it; record a device with a virtual clock")
        case .compacted:
            return error(
                device,
                "device \(device)'s journal starts at a snapshot (compacted: compactJournalAfter, maxReplaySteps, or a restart by another build), so its first requests are gone and no scenario can rebuild it; record a device created since")
        case .unrecordable(let method, let t, let whileRecorded):
            return error(
                device,
                whileRecorded
                    ? "device \(device) received \(method) at t=\(Self.seconds(t)) while recorded, which no scenario step gives again (scenarios have event, intent and advance steps); the recording is dropped: record.start again and leave \(method) out"
                    : "device \(device) received \(method) at t=\(Self.seconds(t)), which no scenario step gives again (scenarios have event, intent and advance steps); record a device that received only events, intents and clock advances",
                method: method, t: t)
        case .failedUnexpectedly(let method, let t, let failure, let whileRecorded):
            return error(
                device,
                "device \(device)'s \(method) at t=\(Self.seconds(t)) failed in a way no scenario step expects (\(failure)); "
                    + (whileRecorded ? "the recording is dropped: record.start again" : "record a device that did not meet it"),
                method: method, t: t)
        case .diverged(let method, let t):
            return error(
                device,
                "device \(device)'s history, replayed on a fresh device, leaves it at \(method) at t=\(Self.seconds(t)): its journal was written by another build of clarityd, or edited; record a device this build made",
                method: method, t: t)
        case .sharedBackend(let method, let t, let whileRecorded):
            return error(
                device,
                "device \(device)'s backend answered its \(method) at t=\(Self.seconds(t)) otherwise than a scenario's backend, which is its run's own and starts empty, answers it: the device's backend holds what other devices or backend.sync put there (a group, another user's events, a later clock), which no scenario step gives; "
                    + (whileRecorded
                        ? "the recording is dropped. Record a device whose backend only it uses (device.create with config.backend naming a backend of its own)"
                        : "record a device whose backend only it uses (device.create with config.backend naming a backend of its own)"),
                method: method, t: t)
        case .tooLong(let why):
            return error(device, "the recording would not run as a scenario: \(why); record a shorter session, on a newer device")
        case .historyTooLarge(let bytes, let limit):
            return error(
                device,
                "device \(device)'s history takes \(bytes) bytes as scenario steps, which with the recordings running is more than recordings may hold together (\(limit) bytes, maxRecordingBytes in clarityd.json); record a device with a shorter history, or raise maxRecordingBytes",
                bytes: bytes, limit: limit)
        case .noRoom(let method, let room):
            let why =
                switch room {
                case .steps(let steps): "it holds \(steps) steps, as many as a scenario may"
                case .virtualTime(let seconds):
                    "it would take the scenario to \(Int(seconds)) s of virtual time, past the \(Int(Scenario.maxVirtualSeconds)) s (ten years) a scenario may cover"
                case .bytes(let held, let adding, let limit):
                    "the recordings running hold \(held) bytes of steps and this one takes \(adding) more, past the \(limit) bytes they may hold together (maxRecordingBytes in clarityd.json)"
                }
            let bytes: (Int, Int)? = if case .bytes(let held, let adding, let limit) = room { (held + adding, limit) } else { nil }
            return error(
                device,
                "device \(device)'s recording has no room for this \(method): \(why). It was not run, and the recording holds everything before it: record.stop the recording, then send it again",
                method: method, bytes: bytes?.0, limit: bytes?.1)
        case .answerTooLarge(let bytes, let limit, let unread):
            let why =
                unread.map { "with the \($0) bytes of answers clients have not read yet, more than answers may take unsent (\(limit))" }
                ?? "more than one answer may (\(limit))"
            return error(
                device,
                "device \(device)'s scenario takes \(bytes) bytes, \(why); the recording goes on: record.stop with path to have clarityd write it to a file",
                bytes: bytes, limit: limit)
        }
    }

    /// Seconds as the wire writes them: `600`, `1.5`.
    private static func seconds(_ t: Double) -> String {
        t == t.rounded() && abs(t) < 1e15 ? "\(Int64(t))" : "\(t)"
    }

    private func error(
        _ device: String, _ message: String, method: String? = nil, t: Double? = nil, bytes: Int? = nil, limit: Int? = nil
    ) -> RPCError {
        var error = RPCError.recording(device: device, reason: reason, message: message, method: method, t: t)
        if let bytes, let limit, case .object(var data)? = error.data {
            data["bytes"] = .int(bytes)
            data["limit"] = .int(limit)
            error.data = .object(data)
        }
        return error
    }
}
