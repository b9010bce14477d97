import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// The daemon's own settings in clarityd.json. A missing field takes its default; a present one
/// must be valid. The same file holds the devices' defaults (``DeviceConfig/Overrides``), and a
/// field that is neither is refused by name (``ConfigFile``).
struct DaemonConfig: Decodable, Sendable, Equatable {
    /// The socket path; nil means ``SocketPath/defaultPath(environment:)``. `--socket` and
    /// `$CLARITYD_SOCKET` come first (``ConfigFile/apply(_:environment:)``).
    var socket: String?
    /// The state directory; nil means `$XDG_STATE_HOME/clarityd`, else `~/.local/state/clarityd`.
    var stateDir: String?
    /// The app that device `default` runs, and devices created without `app`; nil for the
    /// first app the daemon is given (``ConfigFile/defaultApp(in:)``).
    var defaultApp: String?
    var clock = ClockMode.virtual
    /// The longest request line accepted, in bytes; longer lines get -32004 and the connection closes.
    var maxRequestBytes = ClarityProtocol.defaultMaxRequestBytes
    var logLevel = LogLevel.info
    /// Whether an answer waits for its journal line to be synced to disk.
    var durability = Durability.everysec
    /// Journal lines after which a device is snapshotted and its journal started afresh; 0
    /// (the default) never compacts, so that a restart replays every input and comes back exact.
    var compactJournalAfter = 0
    /// Scheduler steps a restart may run to replay one device's journal; past them the device
    /// is compacted into a snapshot (``CompactionPolicy``). 0: never, so restarts are exact
    /// however long they take.
    var maxReplaySteps = 250_000
    /// Threads that run scenarios (`scenario.run`, `.replay`, `.explore`), at a low priority:
    /// all explorations together use at most this many cores. Default: one per core.
    var scenarioThreads = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Scenario requests that may wait for a thread beyond those running; more are refused
    /// (-32007), so that a burst of them holds bounded memory.
    var scenarioQueue = 8
    /// Threads that serve the clients' connections (``EventLoop``). One, as redis: a second
    /// loop keeps both cores of a 2-core machine busy, so every client a `send` wakes preempts a
    /// loop (-c 50 pings at 0.91 of redis with two, 1.0 with one); device work runs on its lanes
    /// whatever this is. More suit a machine with cores to spare beyond its clients.
    var eventLoops = 1
    /// The bytes the steps of all recordings together may hold (``SessionRecording``): a request
    /// there is no room for is refused while its device is recorded. 32 MiB: an answer holds it
    /// whole, as `record.stop` answers by default.
    var maxRecordingBytes = 32 << 20

    /// How far an acknowledged change is saved before the reply goes out.
    enum Durability: String, Codable, Sendable, CaseIterable {
        /// Written and synced (`fdatasync`, shared by concurrent requests): survives `kill -9`,
        /// an OS crash and a power cut.
        case fsync
        /// Written to the OS before the reply, synced at most a second later (redis's `appendfsync
        /// everysec`): survives `kill -9` and a crash of the daemon; an OS crash or power cut can
        /// lose the last second.
        case everysec
        /// Written to the OS: survives `kill -9` and a crash of the daemon; an OS crash or
        /// power cut can lose the last changes. Journals are synced at shutdown.
        case write
    }

    init() {}

    private enum CodingKeys: String, CodingKey {
        case socket, stateDir, defaultApp, clock, maxRequestBytes, logLevel, durability, compactJournalAfter
        case scenarioThreads, scenarioQueue, maxReplaySteps, eventLoops
        case maxRecordingBytes
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DaemonConfig()
        socket = try fields.decodeIfPresent(String.self, forKey: .socket)
        stateDir = try fields.decodeIfPresent(String.self, forKey: .stateDir)
        defaultApp = try fields.decodeIfPresent(String.self, forKey: .defaultApp)
        if defaultApp?.isEmpty == true { throw fields.invalid(.defaultApp, "must not be empty") }
        clock = try fields.oneOf(.clock) ?? defaults.clock
        maxRequestBytes = try fields.positive(.maxRequestBytes) ?? defaults.maxRequestBytes
        logLevel = try fields.oneOf(.logLevel) ?? defaults.logLevel
        durability = try fields.oneOf(.durability) ?? defaults.durability
        compactJournalAfter = try fields.nonNegative(.compactJournalAfter) ?? defaults.compactJournalAfter
        maxReplaySteps = try fields.nonNegative(.maxReplaySteps) ?? defaults.maxReplaySteps
        scenarioThreads = try fields.positive(.scenarioThreads, atMost: 256) ?? defaults.scenarioThreads
        scenarioQueue = try fields.nonNegative(.scenarioQueue, atMost: 1024) ?? defaults.scenarioQueue
        eventLoops = try fields.positive(.eventLoops, atMost: 64) ?? defaults.eventLoops
        maxRecordingBytes = try fields.positive(.maxRecordingBytes, atMost: 1 << 30) ?? defaults.maxRecordingBytes
    }

    /// The socket in force.
    func socketPath(environment: [String: String]) -> String {
        socket.map(Self.expandingTilde) ?? SocketPath.defaultPath(environment: environment)
    }

    /// The state directory in force.
    func stateDirectory(environment: [String: String]) -> URL {
        if let stateDir { return URL(fileURLWithPath: Self.expandingTilde(stateDir), isDirectory: true) }
        if let stateHome = environment["XDG_STATE_HOME"], !stateHome.isEmpty {
            return URL(fileURLWithPath: stateHome, isDirectory: true).appendingPathComponent("clarityd")
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/state/clarityd", isDirectory: true)
    }

    private static func expandingTilde(_ path: String) -> String {
        NSString(string: path).expandingTildeInPath
    }
}

extension KeyedDecodingContainer {
    /// A positive integer field, or nil when absent.
    fileprivate func positive(_ key: Key) throws -> Int? {
        guard let value = try decodeIfPresent(Int.self, forKey: key) else { return nil }
        guard value > 0 else { throw invalid(key, "must be a positive number, got \(value)") }
        return value
    }

    fileprivate func nonNegative(_ key: Key, atMost limit: Int = .max) throws -> Int? {
        guard let value = try decodeIfPresent(Int.self, forKey: key) else { return nil }
        guard value >= 0 else { throw invalid(key, "must be 0 or more, got \(value)") }
        guard value <= limit else { throw invalid(key, "must be at most \(limit), got \(value)") }
        return value
    }

    fileprivate func positive(_ key: Key, atMost limit: Int) throws -> Int? {
        guard let value = try positive(key) else { return nil }
        guard value <= limit else { throw invalid(key, "must be at most \(limit), got \(value)") }
        return value
    }

    /// One of an enumeration's names, or nil when absent.
    fileprivate func oneOf<Choice: RawRepresentable & CaseIterable>(_ key: Key) throws -> Choice?
    where Choice.RawValue == String {
        guard let name = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let choice = Choice(rawValue: name) else {
            let names = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw invalid(key, "expected one of \(names), got \"\(name)\"")
        }
        return choice
    }

    fileprivate func invalid(_ key: Key, _ reason: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath + [key], debugDescription: reason))
    }
}
