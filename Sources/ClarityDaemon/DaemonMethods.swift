import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `daemon.*` methods: liveness, status, the catalog of apps and shutdown. They take no
/// params (any member is refused, as in every method).
final class DaemonMethods: Sendable {
    private let started = ContinuousClock.now
    private let socketPath: String
    private let stateDirectory: URL
    private let devices: DeviceService
    private let connections: ConnectionRegistry
    private let scenarios: ScenarioWorkers
    private let journals: JournalDescriptors
    private let descriptorLimit: Int
    private let shutdown: Shutdown

    /// Written once: the same for every ping (a Bool and a String, which always encode).
    private static let pong = try! JSONText(["pong": true, "version": .string(ClarityProtocol.version)])

    init(
        socketPath: String, stateDirectory: URL, devices: DeviceService, connections: ConnectionRegistry,
        scenarios: ScenarioWorkers, journals: JournalDescriptors, descriptorLimit: Int, shutdown: Shutdown
    ) {
        self.scenarios = scenarios
        self.journals = journals
        self.descriptorLimit = descriptorLimit
        self.socketPath = socketPath
        self.stateDirectory = stateDirectory
        self.devices = devices
        self.connections = connections
        self.shutdown = shutdown
    }

    /// `daemon.ping`: `{"pong":true,"version":…}`.
    func ping(_ params: JSONValue?) throws -> JSONText {
        _ = try decodeParams(NoParams.self, params)
        return Self.pong
    }

    /// `daemon.status`: version, pid, uptime in seconds, socket, state directory, device names
    /// (and those still being restored, `restoring`),
    /// the number of open connections (this one included) and this one's number (`connection`,
    /// what `scenario.cancel` takes with a request id), the bytes of answers waiting for
    /// clients to read them (`answers`: `unsent`, `limit`), the scenario threads' load
    /// (`scenarios`: `threads`, `queueLimit`, `running`, `queued`) and the descriptor budget
    /// (`descriptors`: `limit`, `open`, `journalsOpen`, `journalLimit`).
    func status(_ params: JSONValue?, _ caller: Caller) throws -> JSONValue {
        _ = try decodeParams(NoParams.self, params)
        let uptime = started.duration(to: .now).components
        return [
            "version": .string(ClarityProtocol.version),
            "pid": .int(Int(getpid())),
            "uptime": .double(Double(uptime.seconds) + Double(uptime.attoseconds) / 1e18),
            "socket": .string(socketPath),
            "stateDir": .string(stateDirectory.path),
            "devices": .array(devices.deviceNames.map(JSONValue.string)),
            "restoring": .array(devices.restoringNames.map(JSONValue.string)),
            "connections": .int(connections.count),
            "connection": .int(caller.connection),
            "answers": ["unsent": .int(connections.outputBudget.total), "limit": .int(connections.outputBudget.limit)],
            "scenarios": scenarios.status,
            "descriptors": [
                "limit": .int(descriptorLimit), "open": .int(DescriptorLimit.openCount),
                "journalsOpen": .int(journals.openCount), "journalLimit": .int(journals.limit),
            ],
        ]
    }

    /// `daemon.catalog`: the apps the protocol names, with each available app's intents, and
    /// the event types, for clients' help and completion.
    func catalog(_ params: JSONValue?) throws -> JSONValue {
        _ = try decodeParams(NoParams.self, params)
        struct Catalog: Encodable {
            let apps: [AppDescription]
            let events = DeviceEvent.types
        }
        return try JSONWire.value(Catalog(apps: devices.catalog.descriptions))
    }

    /// `daemon.shutdown`: answers `{"ok":true}`, and once that reached the client, flushes state and
    /// exits 0 — from a thread of its own: delivery happens on an event loop, which the shutdown
    /// waits for (``Shutdown/start(reason:)``).
    func shutdown(_ params: JSONValue?) throws -> MethodReply {
        _ = try decodeParams(NoParams.self, params)
        return MethodReply(result: ["ok": true], afterDelivery: { [shutdown] in shutdown.start(reason: "daemon.shutdown") })
    }
}
