import ControlProtocol
import DeviceActors
import ScenarioFiles
import ScreenRendering
@_spi(Host) import SimulatediOS

/// One device method: its params decoded strictly, then its work on the device (or on the
/// registry of devices), its result turned into JSON.
struct DeviceRoute: Sendable {
    init(runsOn: Router.RunsOn = .deviceLane, replay: Replay?, answer: @escaping Answer) {
        self.runsOn = runsOn
        self.replay = replay
        self.answer = answer
    }

    typealias Answer = @Sendable (DeviceService, _ method: String, JSONValue?, Caller) throws -> MethodReply.Result
    /// Runs a journalled request again on a device being rebuilt (``DeviceReplay``).
    typealias Replay = @Sendable (SimulatedDevice, JSONValue) throws -> Void
    let answer: Answer
    /// On the device's lane, but for `device.list`, which visits every device.
    let runsOn: Router.RunsOn
    /// Set for the methods of one device that are journalled.
    let replay: Replay?

    /// A method of one device: `body` runs on the device's lane; what it changes is journalled.
    static func device<Params: DeviceParams & SendableMetatype, Result: Encodable & SendableMetatype>(
        _ params: Params.Type, _ body: @escaping @Sendable (SimulatedDevice, Params) throws(DeviceError) -> Result
    ) -> DeviceRoute {
        // A journalled request was checked when it was accepted: its settings are taken as given.
        DeviceRoute(replay: { device, raw in _ = try body(device, try decodeParams(Params.self, raw, settingNames: .any)) }) {
            service, method, raw, caller in
            let params = try decodeParams(Params.self, raw, settingNames: service.catalog.topLevelSettingNames)
            let slot = try service.slot(named: params.device ?? "default")
            return .value(
                try JSONWire.value(
                    try slot.perform(method: method, params: raw, waits: caller.waits) { device throws(DeviceError) in
                        try body(device, params)
                    }))
        }
    }

    /// A method of one device that works on its slot rather than on the device
    /// (`record.start`, `record.stop`): on the device's lane, and not journalled. Its answer is
    /// written already (``JSONText``), for one too large to be a value first (`record.stop`'s
    /// scenario); `caller` is who asked.
    static func slot<Params: DeviceParams & SendableMetatype>(
        _ params: Params.Type, _ body: @escaping @Sendable (DeviceSlot, Params, _ caller: Caller) throws -> JSONText
    ) -> DeviceRoute {
        DeviceRoute(replay: nil) { service, _, raw, caller in
            let params = try decodeParams(Params.self, raw)
            return .written(try body(try service.slot(named: params.device ?? "default"), params, caller))
        }
    }

    /// A method of the registry (`device.create`, `device.remove` on the lane of the device
    /// they name, `device.list` on its own thread).
    static func registry<Params: Decodable & SendableMetatype, Result: Encodable & SendableMetatype>(
        _ params: Params.Type, runsOn: Router.RunsOn = .deviceLane,
        _ body: @escaping @Sendable (DeviceService, Params) throws -> Result
    ) -> DeviceRoute {
        DeviceRoute(runsOn: runsOn, replay: nil) { service, _, raw, _ in
            .value(
                try JSONWire.value(
                    try body(service, try decodeParams(Params.self, raw, settingNames: service.catalog.topLevelSettingNames))))
        }
    }
}

/// Every device method and its handler, one line each (docs/protocol.md, Methods).
enum DeviceRoutes {
    static let table: [Method: DeviceRoute] = [
        .deviceCreate: .registry(CreateParams.self) { try $0.create($1) },
        .deviceList: .registry(NoParams.self, runsOn: .ownThread) { service, _ in service.list() },
        .deviceRemove: .registry(RemoveParams.self) { try $0.remove($1.device) },
        .deviceState: .device(DeviceOnlyParams.self) { device, _ throws(DeviceError) in try device.state() },
        .deviceConfig: .device(ConfigParams.self) { device, params throws(DeviceError) in
            try params.config.map { overrides throws(DeviceError) in try device.updateConfig(overrides) } ?? device.config
        },
        .event: .device(EventParams.self) { device, params throws(DeviceError) in
            try device.apply(params.event)
        },
        .clockAdvance: .device(AdvanceParams.self) { device, params throws(DeviceError) in
            guard params.seconds > 0, params.seconds <= SimulatedDevice.longestAdvanceSeconds else {
                throw .invalidArgument(field: "seconds", reason: "must be > 0 and at most a year (31622400)")
            }
            return try device.advance(seconds: params.seconds)
        },
        .clockNow: .device(DeviceOnlyParams.self) { device, _ in Now(t: device.now.t, time: device.now.time) },
        .intent: .device(IntentParams.self) { device, params throws(DeviceError) in
            try device.perform(
                intent: params.name, arguments: JSONIntentArguments(value: params.args ?? .object([:])), app: params.app)
        },
        .storeGet: .device(StoreKeyParams.self) { device, params throws(DeviceError) in
            StoreValue(value: try device.storeGet(suite: params.suite, key: params.key))
        },
        .storeSet: .device(StoreSetParams.self) { device, params throws(DeviceError) in
            _ = try device.storeSet(suite: params.suite, key: params.key, value: params.value)
            return OK()
        },
        .storeRemove: .device(StoreRemoveParams.self) { device, params throws(DeviceError) in
            _ = try device.storeSet(suite: params.suite, key: params.key, value: nil)
            return OK()
        },
        .storeDump: .device(StoreSuiteParams.self) { device, params throws(DeviceError) in
            StoreValues(values: try device.storeDump(suite: params.suite))
        },
        .shieldsGet: .device(DeviceOnlyParams.self) { device, _ throws(DeviceError) in try device.shields() },
        .shieldConfig: .device(ShieldConfigParams.self) { device, params throws(DeviceError) in
            try device.shieldConfig(app: try params.foregroundName())
        },
        .deviceScreen: .device(ScreenParams.self) { device, params throws(DeviceError) in
            DrawnScreen(screen: try device.screen(), drawn: params.format == .svg)
        },
        .notificationsList: .device(NotificationsParams.self) { device, params throws(DeviceError) in
            try device.notifications(since: params.since)
        },
        .sandboxList: .device(DeviceOnlyParams.self) { device, _ in device.sandboxes() },
        .activityStart: .device(ActivityStartParams.self) { device, params throws(DeviceError) in
            try params.checkWebDomains()
            _ = try device.activityStart(name: params.name, schedule: params.schedule, events: params.events ?? [:])
            return OK()
        },
        .activityStop: .device(ActivityStopParams.self) { device, params throws(DeviceError) in
            guard let names = params.activities else {
                throw .invalidArgument(field: "names", reason: "required: an array of activity names")
            }
            _ = try device.activityStop(names: names)
            return OK()
        },
        .activityList: .device(DeviceOnlyParams.self) { device, _ throws(DeviceError) in
            try device.activities()
        },
        .traceGet: .device(TraceParams.self) { device, params throws(DeviceError) in
            if let problem = TraceKindSelection.problem(params.kinds) {
                throw .invalidArgument(field: problem.field, reason: problem.reason)
            }
            let (since, limit, last) = try traceWindow(
                since: params.since, limit: params.limit, last: params.last, maxEvents: TraceParams.maxEvents)
            return device.traceEntries(since: since, limit: limit, last: last, kinds: params.kinds)
        },
        .recordStart: .slot(DeviceOnlyParams.self) { slot, _, _ in try JSONText(JSONWire.value(try slot.startRecording())) },
        .recordStop: .slot(RecordStopParams.self) { slot, params, caller in
            try slot.stopRecording(scenarioName: params.name, path: params.path, id: caller.requestID, answers: caller.subscriptions.budget)
        },
        .traceExport: .device(TraceExportParams.self) { device, params throws(DeviceError) in
            if let format = params.format, !TraceExportParams.formats.contains(format) {
                throw .invalidArgument(
                    field: "format", reason: "unknown format \(format); known: \(TraceExportParams.formats.joined(separator: ", "))")
            }
            let (since, limit, last) = try traceWindow(
                since: params.since, limit: params.limit, last: params.last, maxEvents: TraceExportParams.maxEvents)
            return PerfettoExport(
                effects: device.traceEntries(since: since, limit: limit, last: last), app: device.appName,
                device: device.name)
        },
    ]

    /// Checks a trace window (`since`, and `limit` or `last`, each 0 to `maxEvents`) as
    /// `trace.get` and `trace.export` take it.
    private static func traceWindow(since: Int?, limit: Int?, last: Int?, maxEvents: Int) throws(DeviceError) -> (
        since: Int?, limit: Int?, last: Int?
    ) {
        if let since, since < 0 { throw .invalidArgument(field: "since", reason: "must be ≥ 0") }
        for (field, value) in [("limit", limit), ("last", last)] {
            if let value, !(0...maxEvents).contains(value) {
                throw .invalidArgument(field: field, reason: "0 to \(maxEvents) events an answer; page with since")
            }
        }
        if limit != nil, last != nil {
            throw .invalidArgument(field: "last", reason: "give limit (the oldest) or last (the newest), not both")
        }
        return (since, last == nil ? limit ?? maxEvents : nil, last)
    }

    private struct OK: Encodable { let ok = true }
    /// `trace.export`'s answer: the events are taken on the device's lane, and converted
    /// (``PerfettoTrace``) only as the answer is encoded, off the queue — for a whole trace that
    /// takes a while, and the device serves its next request meanwhile.
    private struct PerfettoExport: Encodable {
        let effects: [TracedEffect]
        let app: String
        let device: String

        func encode(to encoder: any Encoder) throws {
            try PerfettoTrace(effects: effects, app: app, device: device).encode(to: encoder)
        }
    }
    /// `device.screen`'s answer: the screen, and with `format` `svg` its drawing beside it.
    private struct DrawnScreen: Encodable {
        let screen: PhoneScreen
        let drawn: Bool

        func encode(to encoder: any Encoder) throws {
            try screen.encode(to: encoder)
            guard drawn else { return }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(screen.svg(), forKey: .svg)
        }

        private enum CodingKeys: CodingKey { case svg }
    }
    private struct Now: Encodable {
        let t: Double
        let time: String
    }
    private struct StoreValue: Encodable {
        let value: StoredValue?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
        }

        private enum CodingKeys: CodingKey { case value }
    }
    private struct StoreValues: Encodable { let values: [String: StoredValue] }
}
