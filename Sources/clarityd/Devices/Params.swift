import ControlProtocol
import DeviceActors
import Foundation

/// A request's `params` object with typed accessors; every failure is -32602 naming the field
/// by its JSON path (`args.apps[1]`).
struct Params: Sendable {
    let members: [String: JSONValue]
    /// The path of this object inside `params` (`""` at the top, `"args."` inside `args`).
    let prefix: String

    init(_ params: JSONValue?, prefix: String = "") throws(RPCError) {
        switch params {
        case nil, .null?: members = [:]
        case .object(let members)?: self.members = members
        default: throw RPCError.invalidParams(field: prefix.isEmpty ? "params" : String(prefix.dropLast()), reason: "must be an object")
        }
        self.prefix = prefix
    }

    func path(_ name: String) -> String { prefix + name }

    func value(_ name: String) -> JSONValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    func string(_ name: String) throws(RPCError) -> String? {
        guard let value = value(name) else { return nil }
        guard let string = value.stringValue else { throw wrongType(name, "a string", value) }
        return string
    }

    func requiredString(_ name: String) throws(RPCError) -> String {
        guard let string = try string(name) else { throw RPCError.invalidParams(field: path(name), reason: "required") }
        return string
    }

    func bool(_ name: String) throws(RPCError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard let bool = value.boolValue else { throw wrongType(name, "a boolean", value) }
        return bool
    }

    func int(_ name: String) throws(RPCError) -> Int? {
        guard let value = value(name) else { return nil }
        guard let int = value.intValue else { throw wrongType(name, "an integer", value) }
        return int
    }

    func double(_ name: String) throws(RPCError) -> Double? {
        guard let value = value(name) else { return nil }
        guard let double = value.doubleValue else { throw wrongType(name, "a number", value) }
        return double
    }

    func strings(_ name: String) throws(RPCError) -> [String]? {
        guard let value = value(name) else { return nil }
        guard let items = value.arrayValue else { throw wrongType(name, "an array of strings", value) }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard let string = item.stringValue else {
                throw RPCError.invalidParams(field: "\(path(name))[\(index)]", reason: "expected a string, got \(item.typeName)")
            }
            strings.append(string)
        }
        return strings
    }

    func objects(_ name: String) throws(RPCError) -> [Params]? {
        guard let value = value(name) else { return nil }
        guard let items = value.arrayValue else { throw wrongType(name, "an array of objects", value) }
        var objects: [Params] = []
        for (index, item) in items.enumerated() {
            guard case .object = item else {
                throw RPCError.invalidParams(field: "\(path(name))[\(index)]", reason: "expected an object, got \(item.typeName)")
            }
            objects.append(try Params(item, prefix: "\(path(name))[\(index)]."))
        }
        return objects
    }

    func object(_ name: String) throws(RPCError) -> Params? {
        guard let value = value(name) else { return nil }
        guard case .object = value else { throw wrongType(name, "an object", value) }
        return try Params(value, prefix: path(name) + ".")
    }

    /// Decodes a Codable field, naming the inner path that failed.
    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws(RPCError) -> T? {
        guard let value = value(name) else { return nil }
        do {
            return try JSONWire.decode(type, from: value)
        } catch let DecodingError.keyNotFound(key, context) {
            throw RPCError.invalidParams(field: joined(name, context.codingPath + [key]), reason: "required")
        } catch let DecodingError.typeMismatch(_, context) {
            throw RPCError.invalidParams(field: joined(name, context.codingPath), reason: context.debugDescription)
        } catch let DecodingError.valueNotFound(_, context) {
            throw RPCError.invalidParams(field: joined(name, context.codingPath), reason: "must not be null")
        } catch let DecodingError.dataCorrupted(context) {
            throw RPCError.invalidParams(field: joined(name, context.codingPath), reason: context.debugDescription)
        } catch {
            throw RPCError.invalidParams(field: path(name), reason: "\(error)")
        }
    }

    private func joined(_ name: String, _ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(path(name)) { path, key in
            key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)"
        }
    }

    private func wrongType(_ name: String, _ expected: String, _ value: JSONValue) -> RPCError {
        RPCError.invalidParams(field: path(name), reason: "expected \(expected), got \(value.typeName)")
    }
}

/// An event's fields or an intent's `args`, as the device layer reads them; errors keep the
/// field's JSON path.
struct DeviceFields: EventFields, IntentArguments {
    let params: Params

    func optionalString(_ name: String) throws(DeviceError) -> String? {
        try mapped { () throws(RPCError) in try params.string(name) }
    }

    func contacts(_ name: String) throws(DeviceError) -> [Contact] {
        try mapped { () throws(RPCError) in try params.decode([Contact].self, name) ?? [] }
    }

    func string(_ name: String) throws(DeviceError) -> String? {
        try mapped { () throws(RPCError) in try params.string(name) }
    }

    func bool(_ name: String) throws(DeviceError) -> Bool? {
        try mapped { () throws(RPCError) in try params.bool(name) }
    }

    func int(_ name: String) throws(DeviceError) -> Int? {
        try mapped { () throws(RPCError) in try params.int(name) }
    }

    func strings(_ name: String) throws(DeviceError) -> [String]? {
        try mapped { () throws(RPCError) in try params.strings(name) }
    }

    func objects(_ name: String) throws(DeviceError) -> [any IntentArguments]? {
        try mapped { () throws(RPCError) in try params.objects(name)?.map { DeviceFields(params: $0) } }
    }

    private func mapped<T>(_ body: () throws(RPCError) -> T) throws(DeviceError) -> T {
        do {
            return try body()
        } catch {
            throw DeviceError.invalidArgument(
                field: error.data?["field"]?.stringValue ?? params.prefix,
                reason: error.data?["reason"]?.stringValue ?? error.message)
        }
    }
}
