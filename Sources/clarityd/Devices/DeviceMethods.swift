import ControlProtocol
import DeviceActors
import Foundation

/// The per-device methods: each decodes its params, runs on the device's queue, encodes the result.
extension DeviceService {
    func state(_ params: Params) throws -> JSONValue {
        try JSONWire.value(try onDevice(params) { device throws(DeviceError) in try device.state() })
    }

    /// `device.config`: the device's config; with `config`, applies those overrides first.
    func config(_ params: Params) throws -> JSONValue {
        let overrides = params.value("config")
        if let overrides, case .object = overrides {} else if overrides != nil {
            throw RPCError.invalidParams(field: "config", reason: "expected an object")
        }
        let data = try overrides.map { try JSONWire.encode($0) }
        return try JSONWire.value(
            try onDevice(params) { device throws(DeviceError) in
                guard let data else { return device.config }
                return try device.updateConfig(overrides: data)
            })
    }

    func event(_ params: Params) throws -> JSONValue {
        let type = try params.requiredString("type")
        let event = try deviceCall { () throws(DeviceError) in try DeviceEvent.decode(type: type, fields: DeviceFields(params: params)) }
        return try JSONWire.value(try onDevice(params) { device throws(DeviceError) in try device.apply(event) })
    }

    func advance(_ params: Params) throws -> JSONValue {
        guard let seconds = try params.double("seconds") else {
            throw RPCError.invalidParams(field: "seconds", reason: "required")
        }
        guard seconds > 0, seconds <= 366 * 86_400 else {
            throw RPCError.invalidParams(field: "seconds", reason: "must be > 0 and at most a year (31622400)")
        }
        return try JSONWire.value(try onDevice(params) { device throws(DeviceError) in try device.advance(seconds: seconds) })
    }

    func now(_ params: Params) throws -> JSONValue {
        let (t, time) = try onDevice(params) { device throws(DeviceError) in device.now }
        return ["t": .double(t), "time": .string(time)]
    }

    func intent(_ params: Params) throws -> JSONValue {
        let name = try params.requiredString("name")
        let args = try params.object("args") ?? Params(nil, prefix: "args.")
        return try JSONWire.value(
            try onDevice(params) { device throws(DeviceError) in
                try device.perform(intent: name, arguments: DeviceFields(params: args))
            })
    }

    func storeGet(_ params: Params) throws -> JSONValue {
        let key = try params.requiredString("key")
        let suite = try params.string("suite")
        let value = try onDevice(params) { device throws(DeviceError) in try device.storeGet(suite: suite, key: key) }
        return ["value": try value.map(JSONWire.value) ?? .null]
    }

    func storeSet(_ params: Params) throws -> JSONValue {
        let key = try params.requiredString("key")
        let suite = try params.string("suite")
        guard params.value("value") != nil else {
            throw RPCError.invalidParams(field: "value", reason: "required (use store.remove to delete a key)")
        }
        let value = try params.decode(StoredValue.self, "value")
        _ = try onDevice(params) { device throws(DeviceError) in try device.storeSet(suite: suite, key: key, value: value) }
        return ["ok": true]
    }

    func storeRemove(_ params: Params) throws -> JSONValue {
        let key = try params.requiredString("key")
        let suite = try params.string("suite")
        _ = try onDevice(params) { device throws(DeviceError) in try device.storeSet(suite: suite, key: key, value: nil) }
        return ["ok": true]
    }

    func storeDump(_ params: Params) throws -> JSONValue {
        let suite = try params.string("suite")
        let values = try onDevice(params) { device throws(DeviceError) in try device.storeDump(suite: suite) }
        return ["values": try JSONWire.value(values)]
    }

    func shields(_ params: Params) throws -> JSONValue {
        try JSONWire.value(try onDevice(params) { device throws(DeviceError) in try device.shields() })
    }

    func shieldConfig(_ params: Params) throws -> JSONValue {
        let app = try params.requiredString("app")
        return try JSONWire.value(try onDevice(params) { device throws(DeviceError) in try device.shieldConfig(app: app) })
    }

    func notifications(_ params: Params) throws -> JSONValue {
        let since = try params.double("since")
        return try JSONWire.value(try onDevice(params) { device throws(DeviceError) in try device.notifications(since: since) })
    }

    func sandboxes(_ params: Params) throws -> JSONValue {
        try JSONWire.value(try onDevice(params) { device throws(DeviceError) in device.sandboxes() })
    }

    func activityStart(_ params: Params) throws -> JSONValue {
        let name = try params.requiredString("name")
        guard let schedule = try params.decode(DeviceActivitySchedule.self, "schedule") else {
            throw RPCError.invalidParams(field: "schedule", reason: "required")
        }
        let events = try params.decode([String: DeviceActivityEvent].self, "events") ?? [:]
        _ = try onDevice(params) { device throws(DeviceError) in
            try device.activityStart(name: name, schedule: schedule, events: events)
        }
        return ["ok": true]
    }

    func activityStop(_ params: Params) throws -> JSONValue {
        guard let names = try params.strings("names") ?? params.string("name").map({ [$0] }) else {
            throw RPCError.invalidParams(field: "names", reason: "required: an array of activity names")
        }
        _ = try onDevice(params) { device throws(DeviceError) in try device.activityStop(names: names) }
        return ["ok": true]
    }

    func activityList(_ params: Params) throws -> JSONValue {
        try JSONWire.value(try onDevice(params) { device throws(DeviceError) in try device.activities() })
    }

    func trace(_ params: Params) throws -> JSONValue {
        let since = try params.int("since")
        let limit = try params.int("limit")
        if let limit, limit < 0 { throw RPCError.invalidParams(field: "limit", reason: "must be ≥ 0") }
        return try JSONWire.value(
            try onDevice(params) { device throws(DeviceError) in device.traceEntries(since: since, limit: limit) })
    }
}
