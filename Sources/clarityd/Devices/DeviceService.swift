import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// The registry of hosted devices, each on its own lane (``DeviceSlot``, ``DeviceLanes``) with
/// its journal in the state directory, and the device methods' work (``DeviceRoutes``).
///
/// At start every device found in the state directory is rebuilt by replaying its journal
/// (``DeviceStateStore``): the same requests on the same build give the same device, byte for
/// byte, so a restart — clean or `kill -9` — is invisible. Device `default` is created with the
/// configured app if it was not among them.
final class DeviceService: Sendable {
    private struct Registry {
        var slots: [String: DeviceSlot] = [:]
        /// Devices being removed: a `device.create` of the same name waits until they are gone.
        var closing: [String: DeviceSlot] = [:]
    }

    private let registry = Protected(Registry())
    private let store: DeviceStateStore
    private let lanes: DeviceLanes
    private let defaults: DeviceConfig
    private let defaultApp: String
    private let clockMode: ClockMode
    private let compactionThreshold: Int
    private let log: Logger

    /// Device names name files: 1–64 of `A–Z a–z 0–9 . _ -`, not starting with `.` — exactly
    /// (no trailing newline, no other Unicode).
    static func isDeviceName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let punctuation: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]
        return (1...64).contains(bytes.count) && bytes.first != UInt8(ascii: ".")
            && bytes.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || punctuation.contains(byte)
            }
    }

    /// The virtual clock's default epoch: Monday 2026-01-05 09:00 UTC (project choice, so that
    /// runs without `start` are reproducible).
    static let defaultVirtualStart = "2026-01-05T09:00:00Z"

    /// How far from now a wall device's `start` may be: 366 days either way.
    static let wallStartRange: TimeInterval = 366 * 86_400

    init(
        defaultApp: String, clockMode: ClockMode, defaults: DeviceConfig, store: DeviceStateStore, lanes: DeviceLanes,
        compactionThreshold: Int, log: Logger
    ) throws {
        self.lanes = lanes
        self.clockMode = clockMode
        self.defaultApp = defaultApp
        self.defaults = defaults
        self.store = store
        self.compactionThreshold = compactionThreshold
        self.log = log
        for stored in store.loadAll() {
            restore(stored)
        }
        if registry.withLock({ $0.slots["default"] }) == nil {
            _ = try create(CreateParams(device: "default"))
        }
    }

    /// Names of the devices, for `daemon.status`.
    var deviceNames: [String] { registry.withLock { $0.slots.keys.sorted() } }

    /// Syncs and closes every journal (on shutdown), waiting at most `timeout` seconds for
    /// devices busy with a request. Returns false, having said why in the log, when a journal
    /// could not be synced or a device did not stop in time — its journal still holds every
    /// request that was answered.
    func flush(timeout: Double) -> Bool {
        let slots = registry.withLock { Array($0.slots.values) }
        let group = DispatchGroup()
        let failed = Protected<[String]>([])
        for slot in slots {
            // A serial queue of its own gets a thread at once, where the global pool may be busy.
            DispatchQueue(label: "clarityd.stop.\(slot.name)").async(group: group) {
                if !slot.close() { failed.withLock { $0.append(slot.name) } }
            }
        }
        guard group.wait(timeout: .now() + timeout) == .success else {
            log.error("some devices did not stop within \(Int(timeout)) s (a request still running); their journals hold every answered request")
            return false
        }
        let unsynced = failed.withLock { $0.sorted() }
        if !unsynced.isEmpty { log.error("could not sync the journals of: \(unsynced.joined(separator: ", "))") }
        return unsynced.isEmpty
    }

    /// The handler of device method `method`: `route`'s work on this registry; journal lines
    /// the answer must wait for are added to the caller's `waits`.
    func handler(for method: Method, _ route: DeviceRoute) -> Router.Handler {
        { [self] params, caller in MethodReply(result: try route.answer(self, method.rawValue, params, caller.waits)) }
    }

    /// The device called `name`.
    func slot(named name: String) throws(RPCError) -> DeviceSlot {
        guard let slot = registry.withLock({ $0.slots[name] }) else { throw RPCError.noSuchDevice(name) }
        return slot
    }

    // MARK: - Restoring

    /// Rebuilds a stored device (``DeviceReplay``) and hosts it. One that cannot be rebuilt has
    /// its files moved aside (`.corrupt-<unix time>`), so that nothing — not a new device of
    /// the same name — writes over them.
    private func restore(_ stored: DeviceStateStore.StoredDevice) {
        let device: SimulatedDevice
        do {
            device = try DeviceReplay(log: log).rebuild(stored)
        } catch {
            let aside = store.moveAside(stored.name)
            log.error("device \(stored.name) could not be restored (\(error)); its files were moved aside: \(aside.joined(separator: ", "))")
            return
        }
        let slot = DeviceSlot(device: device, lanes: lanes, store: store, compactionThreshold: compactionThreshold, log: log)
        registry.withLock { $0.slots[stored.name] = slot }
        do {
            try slot.attach(entries: stored.entries.count, generation: stored.generation) { try store.openJournal(stored.name) }
        } catch {
            log.error("device \(stored.name): its journal cannot be opened, so nothing more will be saved: \(error)")
        }
        slot.startWallClock()
        log.info("device \(stored.name) restored (\(device.appName), t=\(device.now.t), \(stored.entries.count) requests replayed)")
    }

    // MARK: - The registry's methods

    /// `device.create`: resolves the request against the daemon's defaults, makes the device,
    /// and starts its journal with what was resolved.
    func create(_ params: CreateParams) throws -> DeviceSummary {
        let creation = try resolve(params)
        let device: SimulatedDevice
        do {
            device = try DeviceReplay.make(creation)
        } catch {
            throw RPCError(error)
        }
        let slot = DeviceSlot(device: device, lanes: lanes, store: store, compactionThreshold: compactionThreshold, log: log)
        do {
            try attach(slot, creating: creation)
        } catch {
            slot.close()
            throw error
        }
        slot.startWallClock()
        log.info("device \(creation.name) created (\(creation.app), \(creation.clock.rawValue) clock, seed \(creation.seed))")
        return device.summary
    }

    /// Registers `slot` under its name and starts its journal with `creation`; when the name is
    /// taken, or the journal cannot be written, `slot` is not registered. Both happen on the
    /// device's lane, so that a request that finds the new device waits until it has a journal.
    /// A device of the name still being removed (by a request that is not on the lane: a batch
    /// member) is removed here, on its behalf, files and all; its own `close` then finds that done.
    private func attach(_ slot: DeviceSlot, creating creation: DeviceCreation) throws {
        try slot.attach(entries: 0) {
            while true {
                let waitFor: DeviceSlot? = try registry.withLock { registry throws(RPCError) in
                    if registry.slots[creation.name] != nil { throw RPCError.deviceExists(creation.name) }
                    if let closing = registry.closing[creation.name] { return closing }
                    registry.slots[creation.name] = slot
                    return nil
                }
                guard let waitFor else { break }
                waitFor.close(deletingFiles: true)
                registry.withLock { if $0.closing[creation.name] === waitFor { $0.closing[creation.name] = nil } }
            }
            do {
                return try store.create(creation)
            } catch {
                registry.withLock { $0.slots[creation.name] = nil }
                log.error("device \(creation.name) could not be saved: \(error)")
                throw RPCError.storageFailed("device \(creation.name) could not be saved, so it was not created", reason: "\(error)")
            }
        }
    }

    private func resolve(_ params: CreateParams) throws(RPCError) -> DeviceCreation {
        let name = params.device ?? "default"
        guard Self.isDeviceName(name) else {
            throw RPCError.invalidParams(field: "device", reason: "1–64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        let app = params.app ?? defaultApp
        guard AppCatalog.knownNames.contains(app) else {
            throw RPCError.unknownName(kind: "app", name: app, known: AppCatalog.available)
        }
        guard AppCatalog.available.contains(app) else {
            throw RPCError(
                code: RPCError.Code.unknownName,
                message: "App \(app) is not simulated by this build yet (available: \(AppCatalog.available.joined(separator: ", ")))",
                data: ["kind": "app", "name": .string(app)])
        }
        let clock = try params.clock.map { value throws(RPCError) -> ClockMode in
            guard let mode = ClockMode(rawValue: value) else {
                throw RPCError.invalidParams(field: "clock", reason: "must be virtual or wall")
            }
            return mode
        } ?? clockMode
        let start: String
        if let text = params.start {
            guard let date = DeviceCalendar.parseISO(text) else {
                throw RPCError.invalidParams(field: "start", reason: "expected an ISO-8601 time like 2026-01-05T09:00:00Z")
            }
            // A wall device far from now would spend its life catching up (or standing still).
            guard clock == .virtual || abs(date.timeIntervalSinceNow) <= Self.wallStartRange else {
                throw RPCError.invalidParams(
                    field: "start",
                    reason: "a wall device starts within a year of now (\(DeviceCalendar.isoString(Date() - Self.wallStartRange)) to \(DeviceCalendar.isoString(Date() + Self.wallStartRange)))")
            }
            start = DeviceCalendar.isoString(date)
        } else {
            start = clock == .wall ? DeviceCalendar.isoString(Date()) : Self.defaultVirtualStart
        }
        let timezone = params.timezone ?? "UTC"
        guard TimeZone(identifier: timezone) != nil else {
            throw RPCError.invalidParams(field: "timezone", reason: "unknown time zone \(timezone)")
        }
        var config = defaults
        if let overrides = params.config {
            do {
                config = try config.applying(overrides)
            } catch {
                throw RPCError(error.inside("config"))
            }
        }
        return DeviceCreation(
            name: name, app: app, start: start, timezone: timezone, seed: params.seed ?? 0, clock: clock, config: config)
    }

    /// `device.remove`: waits for the request running on the device, then deletes its files; a
    /// `device.create` of the same name meanwhile waits until they are gone.
    func remove(_ name: String) throws -> OK {
        let slot = try registry.withLock { registry throws(RPCError) -> DeviceSlot in
            guard let slot = registry.slots.removeValue(forKey: name) else { throw RPCError.noSuchDevice(name) }
            registry.closing[name] = slot
            return slot
        }
        slot.close(deletingFiles: true)
        registry.withLock { if $0.closing[name] === slot { $0.closing[name] = nil } }
        log.info("device \(name) removed")
        return OK()
    }

    /// `device.list`.
    func list() -> [DeviceSummary] {
        let all = registry.withLock { $0.slots.values.sorted { $0.name < $1.name } }
        return all.compactMap { slot in try? slot.look { $0.summary } }
    }

    struct OK: Encodable { let ok = true }
}

extension RPCError {
    /// The protocol error for a device's refusal (docs/protocol.md, Errors).
    init(_ error: DeviceError) {
        switch error {
        case .invalidArgument(let field, let reason): self = .invalidParams(field: field, reason: reason)
        case .unknownApp(let name): self = .unknownName(kind: "app", name: name, known: AppCatalog.available)
        case .unknownEvent(let name): self = .unknownName(kind: "event", name: name, known: DeviceEvent.types)
        case .unknownIntent(let name, let known): self = .unknownName(kind: "intent", name: name, known: known)
        case .refused(let reason, let message): self = .refused(reason: reason, message: message)
        case .internalFailure(let detail): self = .internalError(detail)
        }
    }
}
