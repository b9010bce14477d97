import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// How a device was made: what `device.create` resolved (the daemon's defaults applied, a wall
/// device's start fixed), so that replaying its journal makes the same device whatever the
/// config says later. The first line of a journal that starts at creation.
struct DeviceCreation: Codable, Sendable, Equatable {
    var name: String
    /// The primary app.
    var app: String
    /// Every app installed, in order, when several were (`device.create`'s `apps`); nil with one.
    var apps: [String]?
    /// ISO-8601 with milliseconds when it has them.
    var start: String
    var timezone: String
    var seed: UInt64
    var clock: ClockMode
    var config: DeviceConfig
    /// What the network answered the app's launch (an app that signs up with its server), for a replay to give it
    /// again (``DeviceConnection``); nil when it made no request.
    var network: [DeviceConnection.Exchange]?
}

/// The first line of a device's journal: where replay starts.
enum JournalBase: Sendable, Equatable {
    /// At creation: the journal holds the device's whole life.
    case created(DeviceCreation)
    /// At the snapshot of the `generation`th compaction (``DeviceStateStore`` names its file),
    /// whose trace ended at `sequence`. Generation 0 is `<name>.json`: a state file of format 1,
    /// or a snapshot written before snapshots had generations.
    case snapshot(generation: Int, sequence: Int)
    /// At a scenario's replay stopped at a decision (``ReplayOrigin``): the journal holds the
    /// device's life since.
    case replayed(ReplayOrigin)
}

/// One request that changed a device, as its journal keeps it: when it ran, what it was, and
/// where the device stood afterwards, so that a replay can tell whether it retraced its steps.
struct JournalEntry: Codable, Sendable {
    /// The device's virtual time when the request ran, in milliseconds (a wall device catches up
    /// to it before the request is replayed).
    var at: Int64
    var method: String
    var params: JSONValue
    var after: Checkpoint
    /// What the network answered during the request (``DeviceConnection``); nil when nothing.
    var network: [DeviceConnection.Exchange]?

    /// The entry as the JSON value its `Codable` form encodes to, built directly: the journal's
    /// hot path writes it with ``JSONWire``'s fast writer for values.
    var json: JSONValue {
        get throws {
            var members: [String: JSONValue] = [
                "after": ["ms": .int(Int(after.ms)), "random": .int(Int(after.random)), "seq": .int(after.seq)],
                "at": .int(Int(at)), "method": .string(method), "params": params,
            ]
            if let network, !network.isEmpty { members["network"] = try JSONValue(parsing: Data(JSONWire.bytes(network))) }
            return .object(members)
        }
    }

    /// What a user of the device could see change: the trace's last sequence number, the time
    /// and the random generator's state (its bits as a signed number, which JSON keeps exact).
    struct Checkpoint: Codable, Sendable, Equatable {
        var seq: Int
        var ms: Int64
        var random: Int64

        init(_ mark: DeviceMark) {
            seq = mark.sequence
            ms = mark.milliseconds
            random = Int64(bitPattern: mark.random)
        }
    }
}

/// The header line, `{"build":…,"journal":2,"created":{…}}`,
/// `{"build":…,"journal":2,"snapshot":{"generation":G,"seq":N}}` (`generation` is absent for
/// generation 0) or `{"build":…,"journal":2,"replayed":{…}}`.
struct JournalHeader: Codable, Sendable {
    static let format = 2

    var base: JournalBase
    /// The build that wrote the journal (``JournalBuild``); nil in journals written before
    /// headers named it.
    var build: String?

    private enum Key: String, CodingKey {
        case journal, created, snapshot, replayed, build
    }

    private struct SnapshotBase: Codable {
        var generation: Int?
        var seq: Int
    }

    /// A header written by this build.
    init(base: JournalBase) {
        self.base = base
        build = JournalBuild.current
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        build = try fields.decodeIfPresent(String.self, forKey: .build)
        let format = try fields.decode(Int.self, forKey: .journal)
        guard format == Self.format else {
            throw DecodingError.dataCorruptedError(
                forKey: .journal, in: fields, debugDescription: "journal format \(format) is not \(Self.format)")
        }
        if let created = try fields.decodeIfPresent(DeviceCreation.self, forKey: .created) {
            base = .created(created)
        } else if let replayed = try fields.decodeIfPresent(ReplayOrigin.self, forKey: .replayed) {
            base = .replayed(replayed)
        } else {
            let snapshot = try fields.decode(SnapshotBase.self, forKey: .snapshot)
            guard (snapshot.generation ?? 0) >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .snapshot, in: fields, debugDescription: "snapshot generation \(snapshot.generation ?? 0) < 0")
            }
            base = .snapshot(generation: snapshot.generation ?? 0, sequence: snapshot.seq)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Key.self)
        try fields.encode(Self.format, forKey: .journal)
        try fields.encodeIfPresent(build, forKey: .build)
        switch base {
        case .created(let creation): try fields.encode(creation, forKey: .created)
        case .snapshot(let generation, let sequence):
            try fields.encode(SnapshotBase(generation: generation == 0 ? nil : generation, seq: sequence), forKey: .snapshot)
        case .replayed(let origin): try fields.encode(origin, forKey: .replayed)
        }
    }
}
