import ControlProtocol
import DeviceActors
import Foundation

/// Serves every device method (everything but `daemon.*`): a registry of hosted devices, each
/// on its own queue (``DeviceSlot``), persisted in the state directory.
///
/// At start the devices saved in the state directory come back; device `default` is created
/// with the configured app if it was not among them.
final class DeviceService: Sendable {
    private let slots = Protected<[String: DeviceSlot]>([:])
    private let store: DeviceStateStore
    private let defaults: DeviceConfig
    private let defaultApp: String
    private let clockMode: ClockMode
    private let log: Logger

    /// The virtual clock's default epoch: Monday 2026-01-05 09:00 UTC (project choice, so that
    /// runs without `start` are reproducible).
    static let defaultVirtualStart = "2026-01-05T09:00:00Z"

    /// - Parameters:
    ///   - deviceDefaults: the whole clarityd.json object; per-device defaults are read from it.
    init(defaultApp: String, clockMode: String, deviceDefaults: JSONValue, stateDirectory: URL, log: Logger) throws {
        guard let mode = ClockMode(rawValue: clockMode) else {
            throw RPCError.invalidParams(field: "clock", reason: "must be virtual or wall")
        }
        self.clockMode = mode
        self.defaultApp = defaultApp
        self.log = log
        self.defaults = try DeviceConfig().applying(overrides: JSONWire.encode(deviceDefaults))
        self.store = try DeviceStateStore(stateDirectory: stateDirectory, log: log)
        for snapshot in store.loadAll() {
            do {
                let device = try SimulatedDevice(restoring: snapshot)
                register(DeviceSlot(device: device, store: store, log: log))
                log.info("device \(snapshot.name) restored (\(snapshot.app), t=\(device.now.t))")
            } catch {
                log.error("device \(snapshot.name) could not be restored: \(error)")
            }
        }
        if slots.withLock({ $0["default"] }) == nil {
            _ = try create(Params(["device": "default", "app": .string(defaultApp)]))
        }
    }

    /// Names of the devices, for `daemon.status`.
    var deviceNames: [String] { slots.withLock { $0.keys.sorted() } }

    /// Saves every device (on shutdown).
    func flush() {
        for slot in slots.withLock({ Array($0.values) }) {
            do {
                try slot.saveAndStop()
            } catch {
                log.error("device \(slot.device.name): could not save state: \(error)")
            }
        }
    }

    /// Handles one device method; nil when `method` is not a device method.
    func handle(method: String, params: JSONValue?) -> Result<JSONValue, RPCError>? {
        guard let route = DeviceRoutes.table[method] else { return nil }
        do {
            return .success(try route(self, try Params(params)))
        } catch let error as RPCError {
            return .failure(error)
        } catch {
            log.error("\(method): internal error: \(error)")
            return .failure(.internalError("\(error)"))
        }
    }

    // MARK: - Devices

    private func register(_ slot: DeviceSlot) {
        slots.withLock { $0[slot.device.name] = slot }
        slot.startWallClock()
    }

    /// The device named by `device` (default `"default"`).
    func slot(_ params: Params) throws -> DeviceSlot {
        let name = try params.string("device") ?? "default"
        guard let slot = slots.withLock({ $0[name] }) else { throw RPCError.noSuchDevice(name) }
        return slot
    }

    /// Runs `body` on the device's queue; device errors become protocol errors.
    func onDevice<T>(_ params: Params, _ body: (SimulatedDevice) throws(DeviceError) -> T) throws -> T {
        let slot = try slot(params)
        return try slot.run { device in try deviceCall { () throws(DeviceError) in try body(device) } }
    }

    /// `device.create`.
    func create(_ params: Params) throws -> JSONValue {
        let name = try params.string("device") ?? "default"
        guard name.range(of: #"^[A-Za-z0-9._-]{1,64}$"#, options: .regularExpression) != nil, !name.hasPrefix(".") else {
            throw RPCError.invalidParams(field: "device", reason: "1–64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        let app = try params.string("app") ?? defaultApp
        guard AppCatalog.protocolNames.contains(app) else { throw RPCError.unknownName(kind: "app", name: app) }
        guard AppCatalog.available.contains(app) else {
            throw RPCError(
                code: RPCError.Code.unknownName, message: "App \(app) is not simulated by this build (available: \(AppCatalog.available.joined(separator: ", ")))",
                data: ["kind": "app", "name": .string(app)])
        }
        let clock = try params.string("clock").map { value throws(RPCError) -> ClockMode in
            guard let mode = ClockMode(rawValue: value) else {
                throw RPCError.invalidParams(field: "clock", reason: "must be virtual or wall")
            }
            return mode
        } ?? clockMode
        let start: Date
        if let text = try params.string("start") {
            guard let date = DeviceCalendar.parseISO(text) else {
                throw RPCError.invalidParams(field: "start", reason: "expected an ISO-8601 time like 2026-01-05T09:00:00Z")
            }
            start = date
        } else {
            start = clock == .wall ? Date() : DeviceCalendar.parseISO(Self.defaultVirtualStart)!
        }
        let zoneName = try params.string("timezone") ?? "UTC"
        guard let timeZone = TimeZone(identifier: zoneName) else {
            throw RPCError.invalidParams(field: "timezone", reason: "unknown time zone \(zoneName)")
        }
        let seed = try params.int("seed") ?? 0
        guard seed >= 0 else { throw RPCError.invalidParams(field: "seed", reason: "must be ≥ 0") }
        var config = defaults
        if let overrides = params.value("config") {
            guard case .object = overrides else {
                throw RPCError.invalidParams(field: "config", reason: "expected an object")
            }
            do {
                config = try config.applying(overrides: JSONWire.encode(overrides))
            } catch let error as DeviceError {
                throw RPCError(error)
            } catch {
                throw RPCError.invalidParams(field: "config", reason: "\(error)")
            }
        }
        let device: SimulatedDevice
        do {
            device = try SimulatedDevice(
                name: name, app: app, start: start, timeZone: timeZone, timeZoneName: zoneName, seed: UInt64(seed),
                clock: clock, config: config)
        } catch {
            throw RPCError(error)
        }
        let slot = DeviceSlot(device: device, store: store, log: log)
        try slots.withLock { slots in
            guard slots[name] == nil else { throw RPCError.deviceExists(name) }
            slots[name] = slot
        }
        try store.save(device.snapshot())
        slot.startWallClock()
        log.info("device \(name) created (\(app), \(clock.rawValue) clock, seed \(seed))")
        return try JSONWire.value(device.summary)
    }

    /// `device.remove`.
    func remove(_ params: Params) throws -> JSONValue {
        let name = try params.requiredString("device")
        guard let slot = slots.withLock({ $0.removeValue(forKey: name) }) else { throw RPCError.noSuchDevice(name) }
        slot.stop()
        store.remove(name)
        log.info("device \(name) removed")
        return ["ok": true]
    }

    /// `device.list`.
    func list(_ params: Params) throws -> JSONValue {
        let all = slots.withLock { $0.values.sorted { $0.device.name < $1.device.name } }
        return try JSONWire.value(all.map { slot in try slot.run { $0.summary } })
    }
}

/// Runs device-layer code, turning its refusals into protocol errors.
func deviceCall<T>(_ body: () throws(DeviceError) -> T) throws(RPCError) -> T {
    do {
        return try body()
    } catch {
        throw RPCError(error)
    }
}

extension RPCError {
    /// The protocol error for a device's refusal (docs/protocol.md, Errors).
    init(_ error: DeviceError) {
        switch error {
        case .invalidArgument(let field, let reason): self = .invalidParams(field: field, reason: reason)
        case .unknownApp(let name): self = .unknownName(kind: "app", name: name)
        case .unknownEvent(let name):
            self = RPCError(
                code: Code.unknownName, message: "Unknown event type: \(name) (known: \(DeviceEvent.types.joined(separator: ", ")))",
                data: ["kind": "event", "name": .string(name)])
        case .unknownIntent(let name): self = .unknownName(kind: "intent", name: name)
        case .refused(let reason, let message): self = .refused(reason: reason, message: message)
        case .internalFailure(let detail): self = .internalError(detail)
        }
    }
}
