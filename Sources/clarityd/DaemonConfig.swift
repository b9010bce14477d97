import ControlProtocol
import Foundation

/// The contents of clarityd.json. A missing field takes its default; a present one must be valid.
/// Fields the daemon doesn't know are kept for the devices (see ``ConfigFile/deviceDefaults``).
struct DaemonConfig: Codable, Sendable, Equatable {
    /// The socket path; nil means ``SocketPath/defaultPath(environment:)``.
    var socket: String?
    /// The state directory; nil means `$XDG_STATE_HOME/clarityd`, else `~/.local/state/clarityd`.
    var stateDir: String?
    /// The app that device `default` runs.
    var defaultApp = "clarity"
    var clock = ClockMode.virtual
    /// The longest request line accepted, in bytes; longer lines get -32004 and the connection closes.
    var maxRequestBytes = ClarityProtocol.defaultMaxRequestBytes
    var logLevel = LogLevel.info
    var memoryBudgets = MemoryBudgets()
    /// Bytes charged to every running extension.
    var baselineBytes = 2 * 1024 * 1024
    /// Behaviour switches named in BEHAVIOR.md.
    var quirks: [String: Bool] = [:]

    /// How device clocks advance.
    enum ClockMode: String, Codable, Sendable, CaseIterable {
        /// Only `clock.advance` moves time.
        case virtual
        /// Real time drives the virtual clock.
        case wall
    }

    /// Memory limits of the three extension sandboxes, in bytes.
    struct MemoryBudgets: Codable, Sendable, Equatable {
        static let sixMebibytes = 6 * 1024 * 1024

        var monitor = sixMebibytes
        var shieldConfiguration = sixMebibytes
        var shieldAction = sixMebibytes

        init() {}

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = MemoryBudgets()
            monitor = try fields.positive(.monitor) ?? defaults.monitor
            shieldConfiguration = try fields.positive(.shieldConfiguration) ?? defaults.shieldConfiguration
            shieldAction = try fields.positive(.shieldAction) ?? defaults.shieldAction
        }
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DaemonConfig()
        socket = try fields.decodeIfPresent(String.self, forKey: .socket)
        stateDir = try fields.decodeIfPresent(String.self, forKey: .stateDir)
        defaultApp = try fields.decodeIfPresent(String.self, forKey: .defaultApp) ?? defaults.defaultApp
        if defaultApp.isEmpty { throw fields.invalid(.defaultApp, "must not be empty") }
        clock = try fields.oneOf(.clock) ?? defaults.clock
        maxRequestBytes = try fields.positive(.maxRequestBytes) ?? defaults.maxRequestBytes
        logLevel = try fields.oneOf(.logLevel) ?? defaults.logLevel
        memoryBudgets = try fields.decodeIfPresent(MemoryBudgets.self, forKey: .memoryBudgets) ?? defaults.memoryBudgets
        baselineBytes = try fields.decodeIfPresent(Int.self, forKey: .baselineBytes) ?? defaults.baselineBytes
        if baselineBytes < 0 { throw fields.invalid(.baselineBytes, "must not be negative") }
        quirks = try fields.decodeIfPresent([String: Bool].self, forKey: .quirks) ?? defaults.quirks
    }

    /// Encodes every field, nil ones as `null`, so the defaults file shows them all.
    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(socket, forKey: .socket)
        try fields.encode(stateDir, forKey: .stateDir)
        try fields.encode(defaultApp, forKey: .defaultApp)
        try fields.encode(clock, forKey: .clock)
        try fields.encode(maxRequestBytes, forKey: .maxRequestBytes)
        try fields.encode(logLevel, forKey: .logLevel)
        try fields.encode(memoryBudgets, forKey: .memoryBudgets)
        try fields.encode(baselineBytes, forKey: .baselineBytes)
        try fields.encode(quirks, forKey: .quirks)
    }

    private enum CodingKeys: String, CodingKey {
        case socket, stateDir, defaultApp, clock, maxRequestBytes, logLevel, memoryBudgets, baselineBytes, quirks
    }

    /// The socket path in force.
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
        guard value > 0 else { throw invalid(key, "must be a positive number of bytes, got \(value)") }
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
